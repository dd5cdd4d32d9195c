package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.MergingTableWriter;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;

/**
 * bench/README.md, "Targets", key index heap per key for keys wider than a BIGINT: a composite
 * {@code (id bigint, region string)} key and a 36-character UUID string key. Each table is
 * bulk-loaded with {@code wideKeyRows} rows in {@value #FILES} files, then a deletion-vector
 * writer is opened (it builds the key index from the key columns) and the settled heap is taken
 * before and after. Target: at most {@value #TARGET_OVERHEAD_BYTES} bytes per key on top of the
 * key's own bytes (8 per BIGINT, the UTF-8 bytes of a string).
 */
final class WideKeys {
  static final String NAME = "wide-keys";
  private static final int FILES = 10;
  private static final double TARGET_OVERHEAD_BYTES = 48;
  private static final long MIX = 0x9E37_79B9_7F4A_7C15L;
  private static final int REGIONS = 1_000;
  private static final int LONG_BYTES = 8;

  private WideKeys() {}

  /** One kind of key: its schema, key columns and the row of the n-th key. */
  private record KeyKind(String label, StructType schema, List<String> key, LongFunction<Row> row, LongFunction<Long> ownKeyBytes) {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    KeyKind composite = new KeyKind("composite (bigint, string) key", StructType.of(
        new StructField("id", PrimitiveType.LONG, false), new StructField("region", PrimitiveType.STRING, false),
        new StructField("quantity", PrimitiveType.INTEGER, true)), List.of("id", "region"),
        n -> Row.of(n, region(n), (int) (n % REGIONS)), n -> LONG_BYTES + (long) region(n).getBytes(StandardCharsets.UTF_8).length);
    KeyKind uuid = new KeyKind("36-character UUID string key", StructType.of(
        new StructField("uuid", PrimitiveType.STRING, false), new StructField("quantity", PrimitiveType.INTEGER, true)), List.of("uuid"),
        n -> Row.of(uuid(n), (int) (n % REGIONS)), n -> (long) uuid(n).length());
    for (KeyKind kind : List.of(composite, uuid)) {
      measure(tables, kind, config.wideKeyRows(), report);
    }
  }

  private static void measure(BenchTables tables, KeyKind kind, long rows, ResultTable report) throws IOException {
    System.err.printf("[bench] loading %,d rows with a %s%n", rows, kind.label());
    DeltaTable table = tables.table("wide-" + kind.key().size() + "-" + kind.schema().size());
    table.createIfAbsent(new TableSpec(kind.schema(), kind.key(), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter loader = table.newAppendWriter(WriterOptions.defaults().withTargetFileSizeBytes(Long.MAX_VALUE));
    long ownBytes = 0;
    long next = 0;
    for (int file = 0; file < FILES; file++) {
      long end = rows * (file + 1) / FILES;
      ChangeSet.Builder inserts = ChangeSet.builder();
      for (; next < end; next++) {
        inserts.upsert(kind.row().apply(next));
        ownBytes += kind.ownKeyBytes().apply(next);
      }
      BenchTables.commit(loader, inserts.build());
    }
    long heapBefore = HeapProbe.settledUsedHeap();
    long start = System.nanoTime();
    MergingTableWriter writer = BenchTables.writer(table, MergeStrategy.DELETION_VECTORS);
    double seconds = Seconds.since(start);
    long heapAfter = HeapProbe.settledUsedHeap();
    long keys = writer.indexedKeys();
    double perKey = (heapAfter - heapBefore) / (double) keys;
    double own = ownBytes / (double) rows;
    double overhead = perKey - own;
    report.add(new Result(String.format("key index heap per key, %s, %s rows", kind.label(), FlushCost.rows(rows)),
        String.format("%.1f B/key measured (settled heap after − before opening, %,d keys, index built in %.1f s) = %.1f B of key data "
            + "+ %.1f B; %.1f B/key index estimate", perKey, keys, seconds, own, overhead, writer.indexEstimatedHeapBytes() / (double) keys),
        String.format("%.1f + key", overhead), "≤ " + (int) TARGET_OVERHEAD_BYTES + " + key", overhead <= TARGET_OVERHEAD_BYTES));
  }

  /** A region name of 10 to 12 characters. */
  private static String region(long n) {
    return "region-" + Math.floorMod(n * MIX, REGIONS);
  }

  private static String uuid(long n) {
    return new UUID(n * MIX, ~n * MIX ^ n).toString();
  }
}
