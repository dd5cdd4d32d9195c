package io.mergesink.core.maintenance;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.ChangeSet;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.merge.TableWriter;
import io.mergesink.core.merge.WriterOptions;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Benchmark (DESIGN §9, a figure, never a test): full-scan time of a CDC-like table with many
 * small files and deletion vectors, before and after compaction, with MergeSink's scan and with
 * Delta Kernel; median of {@link #RUNS} runs each, printed with the ratio.
 *
 * <p>Run: {@code ./mvnw -q -B -o -pl merge-core test -Dtest=CompactionScanBenchmarkTest -Dbenchmark=true
 * [-Dbenchmark.commits=500 -Dbenchmark.rows=200]}, or this main class on the test classpath with
 * the same two numbers as arguments.
 */
public final class CompactionScanBenchmark {
  private static final int RUNS = 5;
  private static final int KEYS = 50_000;

  private CompactionScanBenchmark() {}

  public static void main(String[] args) throws Exception {
    int commits = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    int rowsPerCommit = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Path dir = Files.createTempDirectory("compaction-bench");
    System.out.println(run(dir, commits, rowsPerCommit));
  }

  static String run(Path dir, int commits, int rowsPerCommit) throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(100));
    Random random = new Random(1);
    for (int commit = 1; commit <= commits; commit++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      java.util.Set<Long> seen = new java.util.HashSet<>();
      for (int i = 0; i < rowsPerCommit; i++) {
        long id = random.nextInt(KEYS);
        if (seen.add(id)) {
          if (random.nextInt(10) == 0) {
            changes.delete(Row.of(id));
          } else {
            changes.upsert(Tables.row(id, commit));
          }
        }
      }
      writer.commit(changes.txn("bench:t:0", commit).build());
    }
    Snapshot before = table.snapshot();
    long ourBefore = medianScanNanos(table, before);
    long kernelBefore = medianKernelNanos(table.root());
    long compactStart = System.nanoTime();
    CompactionResult result = new Compactor(Tables.STORAGE, CompactionOptions.defaults()).compact(before);
    long compactNanos = System.nanoTime() - compactStart;
    Snapshot after = table.snapshot();
    long ourAfter = medianScanNanos(table, after);
    long kernelAfter = medianKernelNanos(table.root());
    long dvFiles = before.files().values().stream().filter(f -> f.deletionVector() != null).count();
    return String.format(java.util.Locale.ROOT,
        "table: %d commits x %d changes; before: %d files (%d with DVs), after: %d files; compaction took %.0f ms (%s)%n"
            + "MergeSink scan  median of %d: before %.1f ms, after %.1f ms, before/after = %.1fx%n"
            + "Kernel scan     median of %d: before %.1f ms, after %.1f ms, before/after = %.1fx",
        commits, rowsPerCommit, before.files().size(), dvFiles, after.files().size(), compactNanos / 1e6,
        result.getClass().getSimpleName(), RUNS, ourBefore / 1e6, ourAfter / 1e6, (double) ourBefore / ourAfter, RUNS,
        kernelBefore / 1e6, kernelAfter / 1e6, (double) kernelBefore / kernelAfter);
  }

  private static long medianScanNanos(DeltaTable table, Snapshot snapshot) throws Exception {
    long[] times = new long[RUNS];
    long rows = -1;
    for (int run = 0; run < RUNS; run++) {
      long start = System.nanoTime();
      long count = 0;
      try (CloseableIterator<Row> scan = table.scan(snapshot, List.of())) {
        while (scan.hasNext()) {
          scan.next();
          count++;
        }
      }
      times[run] = System.nanoTime() - start;
      if (rows >= 0 && rows != count) {
        throw new IllegalStateException("scan returned " + count + " rows, earlier " + rows);
      }
      rows = count;
    }
    Arrays.sort(times);
    return times[RUNS / 2];
  }

  private static long medianKernelNanos(String root) {
    List<Long> times = new ArrayList<>();
    for (int run = 0; run < RUNS; run++) {
      long start = System.nanoTime();
      KernelTables.readRows(root);
      times.add(System.nanoTime() - start);
    }
    times.sort(null);
    return times.get(RUNS / 2);
  }
}
