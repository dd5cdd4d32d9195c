package io.mergesink.ingest.table;

import io.mergesink.ingest.config.CommitOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the key indexes of a task's tables within {@code index.memory.max.bytes} (docs/operations.md,
 * "Sizing the worker"). After each flush, while the indexes of the open tables take more than the budget, the
 * index of the table that took changes least recently is dropped; the table loads it again at its
 * next commit of changes, reading the key columns of its files. Tables the flush brought changes to
 * keep theirs: they are the ones in use, and a table whose index alone is over the budget would
 * otherwise load it at every commit. (A commit that only moves a table's positions reads no index.)
 * Called on the engine's thread, between flushes.
 */
public final class KeyIndexBudget {
  private static final Logger LOG = LoggerFactory.getLogger(KeyIndexBudget.class);

  private final long maxBytes;
  /** Per table, the number of the last flush that brought it changes. */
  private final Map<String, Long> lastChanged = new HashMap<>();
  private long flushes;
  private volatile long heapBytes;

  /** @param maxBytes the budget; 0 for none */
  public KeyIndexBudget(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("the key index budget must not be negative, found " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /** The budget {@code index.memory.max.bytes} sets: {@code configured}, or a quarter of the JVM's maximum heap for -1. */
  public static KeyIndexBudget of(long configured) {
    return new KeyIndexBudget(configured == CommitOptions.INDEX_MEMORY_MAX_BYTES_AUTO ? Runtime.getRuntime().maxMemory() / 4 : configured);
  }

  /** Drops indexes of {@code open} tables that took no changes ({@code changed}), least recently changed first, down to the budget. */
  public void afterFlush(Collection<TableSink> open, Set<String> changed) {
    long flush = ++flushes;
    changed.forEach(table -> lastChanged.put(table, flush));
    lastChanged.keySet().retainAll(open.stream().map(TableSink::name).collect(Collectors.toSet()));
    long total = open.stream().mapToLong(TableSink::keyIndexHeapBytes).sum();
    if (maxBytes > 0 && total > maxBytes) {
      total = dropIdle(open, changed, total);
    }
    heapBytes = total;
  }

  /** The heap the key indexes of the open tables took after the last flush, an estimate. */
  public long heapBytes() {
    return heapBytes;
  }

  private long dropIdle(Collection<TableSink> open, Set<String> changed, long total) {
    List<TableSink> idle = new ArrayList<>(open.stream().filter(sink -> !changed.contains(sink.name())).toList());
    idle.sort(Comparator.comparingLong(sink -> lastChanged.getOrDefault(sink.name(), 0L)));
    long left = total;
    int dropped = 0;
    for (TableSink sink : idle) {
      if (left <= maxBytes) {
        break;
      }
      long bytes = sink.keyIndexHeapBytes();
      if (bytes > 0) {
        sink.dropKeyIndex();
        left -= bytes;
        dropped++;
      }
    }
    if (dropped > 0) {
      LOG.info("Dropped the key indexes of {} idle table(s): the indexes took {} bytes, {} now ({}={})", dropped, total, left,
          CommitOptions.INDEX_MEMORY_MAX_BYTES, maxBytes);
    }
    return left;
  }
}
