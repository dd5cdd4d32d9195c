package io.mergesink.ingest.table;

import io.mergesink.core.types.StructType;
import io.mergesink.ingest.align.RowAligner;
import java.util.HashMap;
import java.util.Map;

/**
 * The aligners of one table, by the schema of the rows they take, all for the table's current
 * schema: when that changes (a column added by this task or learned from another writer's commit),
 * they are made anew. Not thread-safe.
 */
final class AlignerCache {
  private final String table;
  private final Map<StructType, RowAligner> byRowSchema = new HashMap<>();
  private StructType target;

  AlignerCache(String table) {
    this.table = table;
  }

  /** The aligner from rows of {@code from} to rows of {@code to}. */
  RowAligner get(StructType from, StructType to) {
    retarget(to);
    return byRowSchema.computeIfAbsent(from, schema -> RowAligner.of(table, schema, to));
  }

  /** Whether rows of {@code from} were aligned to {@code to} already (so they fit it). */
  boolean has(StructType from, StructType to) {
    retarget(to);
    return byRowSchema.containsKey(from);
  }

  private void retarget(StructType to) {
    // snapshots parse their schema anew, so an equal schema is often another instance
    if (to != target && !to.equals(target)) {
      byRowSchema.clear();
    }
    target = to;
  }
}
