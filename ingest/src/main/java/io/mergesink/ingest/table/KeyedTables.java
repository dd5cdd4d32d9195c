package io.mergesink.ingest.table;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tables with a primary key ({@code write.mode=upsert}): the last change per key wins, deletes
 * remove the row, truncates empty the table.
 *
 * <p>Change sets: Debezium sends a key always to the same partition, so keys of different
 * partitions do not meet; where they do (a re-partitioned topic), the change with the later source
 * timestamp wins, since offsets of different partitions say nothing about order. A truncate in any
 * partition truncates the table before the change set's upserts.
 */
final class KeyedTables implements TableKind {
  @Override
  public PendingChanges newPendingChanges() {
    return PendingChanges.coalescedByKey();
  }

  @Override
  public boolean createsTable(ChangeEvent event) {
    return event.op() == Op.UPSERT;
  }

  /** {@code primary.key.fields} when set, else the record key's columns. */
  @Override
  public List<String> newTableKey(ChangeEvent event, List<String> configuredKey) {
    return configuredKey.isEmpty() ? event.keySchema().fieldNames() : configuredKey;
  }

  /** The event's row schema with the key columns NOT NULL. */
  @Override
  public StructType newTableSchema(ChangeEvent event, List<String> key) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : event.valueSchema().fields()) {
      fields.add(key.contains(field.name()) ? new StructField(field.name(), field.type(), false, field.metadata()) : field);
    }
    return new StructType(fields);
  }

  @Override
  public List<String> keyColumns(List<String> recordedKey, List<String> configuredKey) {
    return recordedKey.isEmpty() ? configuredKey : recordedKey;
  }

  @Override
  public ChangeEvent prepare(TableSink sink, ChangeEvent event) throws IOException {
    return switch (event.op()) {
      case UPSERT -> event.with(Op.UPSERT, sink.key(event.keySchema(), event.key()), sink.keySchema(),
          sink.fit(event.valueSchema(), event.value()), sink.schema(),
          event.previousKey() == null ? null : sink.key(event.keySchema(), event.previousKey()));
      case DELETE -> event.with(Op.DELETE, sink.key(event.keySchema(), event.key()), sink.keySchema(), null, null, null);
      default -> event;
    };
  }

  @Override
  public ChangeSet assemble(TableSink sink, List<TableChanges> changes, Map<String, TxnChange> txns) {
    // rows are re-fitted to the sink's current schema; the writer pads them if the table gains columns before they land
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(sink.schema());
    Map<Row, ChangeEvent> latest = new LinkedHashMap<>();
    for (TableChanges partition : changes) {
      if (partition.truncatedAt().isPresent()) {
        builder.truncate();
      }
      for (ChangeEvent event : partition.changes()) {
        latest.merge(event.key(), event, (earlier, later) -> later.timestampMs() >= earlier.timestampMs() ? later : earlier);
      }
    }
    for (ChangeEvent event : latest.values()) {
      if (event.op() == Op.UPSERT) {
        builder.upsert(sink.refit(event.valueSchema(), event.value()), event.previousKey());
      } else {
        builder.delete(event.key());
      }
    }
    txns.forEach(builder::txn);
    return builder.build();
  }
}
