package io.mergesink.ingest.table;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the buffered changes of several partitions for one table into one change set.
 *
 * <p>Debezium sends a key always to the same partition, so keys of different partitions do not
 * meet; where they do (a re-partitioned topic), the change with the later source timestamp wins,
 * since offsets of different partitions say nothing about order. A truncate in any partition
 * truncates the table before the change set's upserts.
 */
public final class ChangeSetAssembler {
  private ChangeSetAssembler() {}

  public static ChangeSet assemble(TableSink sink, List<TableChanges> changes, Map<String, TxnChange> txns, boolean append) {
    // rows are re-fitted to the sink's current schema; the writer pads them if the table gains columns before they land
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(sink.schema());
    if (append) {
      for (TableChanges partition : changes) {
        for (ChangeEvent event : partition.changes()) {
          builder.upsert(sink.refit(event.valueSchema(), event.value()));
        }
      }
    } else {
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
    }
    txns.forEach(builder::txn);
    return builder.build();
  }
}
