package io.mergesink.core.deletionvectors;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Measures what inline deletion vectors ({@link DeletionVectorStore#MAX_INLINE_BYTES_PROPERTY})
 * change against DV files: the same seeded CDC workload (90% updates, 5% inserts, 5% deletes of
 * random keys) lands in one table per inline limit, side by side in one JVM, and each table reports
 * the files its commits created, the log's size, commit time, table open time and scan time (ours
 * and Delta Kernel's, medians of 5), after a warm-up table. A benchmark, not a test (no assertions). Run after
 * {@code ./mvnw -q -pl merge-core test-compile} and
 * {@code ./mvnw -q -pl merge-core dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test}:
 *
 * <pre>
 * java -Xmx4g -cp merge-core/target/classes:merge-core/target/test-classes:$(cat /tmp/cp.txt) \
 *   io.mergesink.core.deletionvectors.InlineDeletionVectorProbe DIR [rows batch commits limit...]
 * </pre>
 */
public final class InlineDeletionVectorProbe {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", PrimitiveType.LONG, true));
  private static final int LOAD_FILES = 10;
  private static final long SEED = 16;
  private static final int REPEATS = 5;

  private InlineDeletionVectorProbe() {}

  public static void main(String[] args) throws IOException, FencedException {
    Path dir = Path.of(args[0]);
    long rows = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int commits = args.length > 3 ? Integer.parseInt(args[3]) : 30;
    int[] limits = args.length > 4 ? Arrays.stream(args, 4, args.length).mapToInt(Integer::parseInt).toArray()
        : new int[] {0, 256, 1024, 4096};
    System.out.printf("%d rows in %d files, %d commits of %d changes (90/5/5)%n", rows, LOAD_FILES, commits, batch);
    System.out.printf("%-10s %8s %8s %10s %12s %12s %12s %10s %10s %10s%n", "inline<=B", "DV files", "inline", "files", "log KiB",
        "ckpt KiB", "commit ms", "open ms", "scan ms", "kernel ms");
    probe(dir.resolve("warm-up"), rows, batch, commits, limits[0], false);
    for (int limit : limits) {
      probe(dir.resolve("inline-" + limit), rows, batch, commits, limit, true);
    }
  }

  private static void probe(Path root, long rows, int batch, int commits, int limit, boolean report)
      throws IOException, FencedException {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS,
        Map.of(DeletionVectorStore.MAX_INLINE_BYTES_PROPERTY, Integer.toString(limit))));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    for (int f = 0; f < LOAD_FILES; f++) {
      ChangeSet.Builder load = ChangeSet.builder();
      for (long id = f * rows / LOAD_FILES; id < (f + 1) * rows / LOAD_FILES; id++) {
        load.upsert(row(id, 0));
      }
      writer.commit(load.build());
    }
    long filesBefore = countFiles(root);
    SplittableRandom random = new SplittableRandom(SEED);
    long nextId = rows;
    List<Long> commitNanos = new ArrayList<>();
    for (int c = 1; c <= commits; c++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      java.util.Set<Long> keys = new java.util.HashSet<>();
      for (int i = 0; i < batch; i++) {
        int kind = random.nextInt(100);
        if (kind < 5) {
          changes.upsert(row(nextId++, c));
        } else {
          long id = random.nextLong(rows);
          if (keys.add(id)) {
            if (kind < 10) {
              changes.delete(Row.of(id));
            } else {
              changes.upsert(row(id, c));
            }
          }
        }
      }
      long start = System.nanoTime();
      writer.commit(changes.build());
      commitNanos.add(System.nanoTime() - start);
    }
    Snapshot snapshot = table.snapshot();
    long inline = snapshot.files().values().stream().map(AddFile::deletionVector)
        .filter(dv -> dv != null && dv.isInline()).count();
    long dvFiles;
    try (Stream<Path> files = Files.list(root)) {
      dvFiles = files.filter(p -> p.getFileName().toString().startsWith(DeletionVectorStore.FILE_NAME_PREFIX)).count();
    }
    List<Long> openNanos = new ArrayList<>();
    List<Long> scanNanos = new ArrayList<>();
    List<Long> kernelNanos = new ArrayList<>();
    for (int repeat = 0; repeat < REPEATS; repeat++) {
      long start = System.nanoTime();
      Snapshot opened = table.snapshot();
      openNanos.add(System.nanoTime() - start);
      start = System.nanoTime();
      long scanned = 0;
      try (TableScan scan = table.scan(opened, List.of())) {
        while (scan.hasNext()) {
          scan.next();
          scanned++;
        }
      }
      scanNanos.add(System.nanoTime() - start);
      start = System.nanoTime();
      long kernelRows = KernelTables.readRows(root.toString()).size();
      kernelNanos.add(System.nanoTime() - start);
      if (kernelRows != scanned) {
        throw new IllegalStateException("Kernel read " + kernelRows + " rows, our scan " + scanned);
      }
    }
    if (!report) {
      return;
    }
    System.out.printf("%-10d %8d %8d %10d %12.1f %12.1f %12.1f %10.1f %10.1f %10.1f%n", limit, dvFiles, inline,
        countFiles(root) - filesBefore, logBytes(root, false) / 1024.0, logBytes(root, true) / 1024.0,
        medianMillis(commitNanos), medianMillis(openNanos), medianMillis(scanNanos), medianMillis(kernelNanos));
  }

  private static double medianMillis(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2) / 1e6;
  }

  private static Row row(long id, int version) {
    return Row.of(id, "name-" + id + "-" + version, id * 10 + version);
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  /** Bytes of the commits, or of the latest checkpoint. */
  private static long logBytes(Path root, boolean checkpoint) throws IOException {
    try (Stream<Path> files = Files.list(root.resolve("_delta_log"))) {
      List<Path> matching = files.filter(p -> p.getFileName().toString().endsWith(checkpoint ? ".checkpoint.parquet" : ".json"))
          .sorted().toList();
      if (checkpoint) {
        return matching.isEmpty() ? 0 : Files.size(matching.get(matching.size() - 1));
      }
      long bytes = 0;
      for (Path file : matching) {
        bytes += Files.size(file);
      }
      return bytes;
    }
  }
}
