package io.mergesink.ingest.table;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.ChangeOrder;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.IngestMetrics;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.UpsertOrder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tables with a primary key ({@code write.mode=upsert}): the last change per key wins, deletes
 * remove the row, truncates empty the table. With {@code upsert.order.by} the change with the newest
 * source sequence wins instead, and with {@code delete.mode=soft} a delete marks the row; both land
 * through the MERGE engine ({@link OrderedMerge}).
 *
 * <p>Change sets: Debezium sends a key always to the same partition, so keys of different
 * partitions do not meet; where they do (a re-partitioned topic), the change with the later source
 * timestamp wins, since offsets of different partitions say nothing about order. A truncate in any
 * partition truncates the table before the change set's upserts.
 */
final class KeyedTables implements TableKind {
  private final ChangeSemantics semantics;
  private final SequenceOrder order;
  private final OrderedMerge merge;

  /** Kafka order and hard deletes. */
  KeyedTables() {
    this(ChangeSemantics.DEFAULT, IngestMetrics.NONE);
  }

  KeyedTables(ChangeSemantics semantics, IngestMetrics metrics) {
    this.semantics = semantics;
    this.order = new SequenceOrder(semantics.orderBy(), metrics);
    this.merge = new OrderedMerge(semantics, order);
  }

  @Override
  public PendingChanges newPendingChanges() {
    return semantics.ordered() || semantics.deleteMode() == DeleteMode.SOFT ? PendingChanges.coalescedByKey(order)
        : PendingChanges.coalescedByKey();
  }

  @Override
  public List<StructField> ownColumns() {
    return merge.ownColumns();
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

  /** The event's row schema with the key columns NOT NULL, then the sink's own columns ({@link #ownColumns()}). */
  @Override
  public StructType newTableSchema(ChangeEvent event, List<String> key) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : event.valueSchema().fields()) {
      fields.add(key.contains(field.name()) ? new StructField(field.name(), field.type(), false, field.metadata()) : field);
    }
    StructType schema = new StructType(fields);
    for (StructField own : ownColumns()) {
      if (schema.indexOf(own.name()) < 0) {
        schema = schema.add(own);
      }
    }
    return schema;
  }

  @Override
  public List<String> keyColumns(List<String> recordedKey, List<String> configuredKey) {
    return recordedKey.isEmpty() ? configuredKey : recordedKey;
  }

  /**
   * @throws FatalIngestException the table has no column {@code upsert.order.by} names
   */
  @Override
  public ChangeEvent prepare(TableSink sink, ChangeEvent event) throws IOException {
    if (semantics.orderBy().kind() == UpsertOrder.Kind.COLUMN && sink.schema().indexOf(semantics.orderBy().column()) < 0) {
      throw new FatalIngestException("table " + sink.name() + " has no column '" + semantics.orderBy().column()
          + "', which upsert.order.by names; its columns are " + sink.schema().fieldNames(), null);
    }
    return switch (event.op()) {
      case UPSERT -> event.with(Op.UPSERT, sink.key(event.keySchema(), event.key()), sink.keySchema(),
          sink.fit(event.valueSchema(), event.value()), sink.schema(),
          event.previousKey() == null ? null : sink.key(event.keySchema(), event.previousKey()));
      case DELETE -> event.with(Op.DELETE, sink.key(event.keySchema(), event.key()), sink.keySchema(), null, null, null);
      default -> event;
    };
  }

  @Override
  public ChangeSet assemble(TableSink sink, List<TableChanges> changes, Map<String, TxnChange> txns) throws IOException {
    // rows are re-fitted to the sink's current schema; the writer pads them if the table gains columns before they land
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(sink.schema());
    order.deciding();
    Map<Row, ChangeEvent> latest = new LinkedHashMap<>();
    boolean truncated = false;
    for (TableChanges partition : changes) {
      if (partition.truncatedAt().isPresent()) {
        builder.truncate();
        truncated = true;
      }
      for (ChangeEvent event : partition.changes()) {
        latest.merge(event.key(), event, this::newer);
      }
    }
    if (semantics.merges()) {
      return merge.assemble(sink, new ArrayList<>(latest.values()), truncated, txns);
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

  /** Of two changes of a key from different partitions: by sequence when ordered ({@link ChangeOrder#replaces}), else the later timestamp. */
  private ChangeEvent newer(ChangeEvent earlier, ChangeEvent later) {
    if (semantics.ordered()) {
      if (order.replaces(later, earlier)) {
        return later;
      }
      order.skipped(later.position(), later.key(), order.sequence(later), order.sequence(earlier));
      return earlier;
    }
    return later.timestampMs() >= earlier.timestampMs() ? later : earlier;
  }

  @Override
  public void landed(TableSink sink) {
    if (semantics.merges()) {
      merge.landed(sink.name());
    }
  }
}
