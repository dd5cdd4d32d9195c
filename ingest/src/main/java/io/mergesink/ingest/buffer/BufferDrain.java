package io.mergesink.ingest.buffer;

import java.util.List;

/**
 * Everything a partition's buffer held, handed over by {@link PartitionBuffer#drain()}.
 *
 * @param lastOffset the offset of the last record the partition processed (changed something or
 *     not), or {@link PartitionBuffer#NO_OFFSET}; the txn version to record for the partition
 * @param tables the changes per table, in the order tables first appeared; may be empty when only
 *     skipped records advanced the position
 */
public record BufferDrain(String topic, int partition, long lastOffset, List<TableChanges> tables) {
  public BufferDrain {
    tables = List.copyOf(tables);
  }
}
