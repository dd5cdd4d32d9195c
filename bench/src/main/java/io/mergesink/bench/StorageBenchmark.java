package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.core.storage.s3.S3Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.locals3.LocalS3;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;

/**
 * docs/storage.md and bench/README.md, "S3 against local disk": the same workload on local disk and on S3 (a local S3Proxy) in
 * one run: commit latency and requests per commit of deletion-vector upserts into a table of
 * {@value #FILES} files, and the time and requests of a table open after {@value #COMMITS} commits
 * (checkpoint every 10). S3Proxy runs on the same machine (no network latency): the figures show
 * what the request pattern costs, not what a remote S3 adds per request.
 *
 * <p>{@code java -Xmx4g -jar bench/target/mergesink-bench.jar storage [--quick]}
 */
final class StorageBenchmark {
  static final String SUITE = "storage";
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("qty", PrimitiveType.INTEGER, true));
  private static final String APP_ID = "bench:storage:0";
  private static final int FILES = 20;
  private static final int ROWS_PER_FILE = 5_000;
  private static final int CHANGES_PER_COMMIT = 1_000;
  private static final int COMMITS = 40;
  private static final int WARMUP_COMMITS = 5;
  private static final int OPENS = 15;

  private StorageBenchmark() {}

  public static void main(String[] args) throws IOException {
    boolean quick = List.of(args).contains("--quick");
    int commits = quick ? 10 : COMMITS;
    ResultTable report = new ResultTable();
    Path dir = Files.createTempDirectory("mergesink-bench-storage-");
    try (LocalS3 server = LocalS3.start()) {
      server.createBucket("bench");
      S3Options options = S3Options.defaults().withRegion(LocalS3.REGION).withEndpoint(URI.create(server.endpoint()))
          .withPathStyle(true).withCredentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY);
      try (Storage local = new LocalStorage(); Storage s3 = S3Storage.create(options)) {
        Measured onDisk = measure("local disk", local, dir.resolve("table").toString(), commits);
        Measured onS3 = measure("S3 (S3Proxy)", s3, "s3://bench/table", commits);
        for (Measured m : List.of(onDisk, onS3)) {
          report.add(Result.info("commit latency, " + m.name(), m.commitMillis().describe("%.1f", "ms")));
          report.add(Result.info("requests per commit, " + m.name(), m.commitRequests().describe("%.0f", "") + " e.g. "
              + m.typicalCommit()));
          report.add(Result.info("table open (snapshot()), " + m.name(), m.openMillis().describe("%.1f", "ms")));
          report.add(Result.info("requests per table open, " + m.name(), m.openRequests().describe("%.0f", "") + " e.g. "
              + m.typicalOpen()));
        }
        report.add(new Result("commit latency S3 / local disk", "ratio of the medians",
            String.format("%.2f", onS3.commitMillis().median() / onDisk.commitMillis().median()), "", true));
        report.add(new Result("table open S3 / local disk", "ratio of the medians",
            String.format("%.2f", onS3.openMillis().median() / onDisk.openMillis().median()), "", true));
      }
    }
    System.out.println();
    System.out.println(report.toMarkdown());
  }

  /** What one storage measured. */
  private record Measured(String name, Samples commitMillis, Samples commitRequests, RequestCounts typicalCommit,
      Samples openMillis, Samples openRequests, RequestCounts typicalOpen) {}

  private static Measured measure(String name, Storage storage, String root, int commits) throws IOException {
    try {
      return measureCommitsAndOpens(name, storage, root, commits);
    } catch (FencedException e) {
      throw new IllegalStateException("the benchmark's only writer was fenced: " + e.getMessage(), e);
    }
  }

  private static Measured measureCommitsAndOpens(String name, Storage storage, String root, int commits)
      throws IOException, FencedException {
    DeltaTable table = DeltaTable.forPath(storage, root);
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    for (int file = 0; file < FILES; file++) {
      ChangeSet.Builder load = ChangeSet.builder();
      for (int row = 0; row < ROWS_PER_FILE; row++) {
        load.upsert(Row.of((long) file * ROWS_PER_FILE + row, "loaded", row));
      }
      writer.commit(load.build());
    }
    Random random = new Random(7);
    double[] millis = new double[commits];
    double[] requests = new double[commits];
    RequestCounts typical = RequestCounts.ZERO;
    for (int commit = -WARMUP_COMMITS; commit < commits; commit++) {
      ChangeSet changes = changes(random, commit, writer.snapshot().txnVersion(APP_ID));
      RequestCounts before = storage.requests();
      long start = System.nanoTime();
      writer.commit(changes);
      double elapsed = (System.nanoTime() - start) / 1e6;
      RequestCounts made = storage.requests().minus(before);
      if (commit >= 0) {
        millis[commit] = elapsed;
        requests[commit] = made.total();
        if (made.get(RequestKind.LIST) == 0 && typical.total() == 0) {
          typical = made;
        }
      }
    }
    double[] openMillis = new double[OPENS];
    double[] openRequests = new double[OPENS];
    RequestCounts typicalOpen = RequestCounts.ZERO;
    for (int open = 0; open < OPENS; open++) {
      RequestCounts before = storage.requests();
      long start = System.nanoTime();
      DeltaTable.forPath(storage, root).snapshot();
      openMillis[open] = (System.nanoTime() - start) / 1e6;
      typicalOpen = storage.requests().minus(before);
      openRequests[open] = typicalOpen.total();
    }
    System.err.printf("[bench] %s: %d commits of %d changes into %d files of %d rows%n", name, commits, CHANGES_PER_COMMIT,
        FILES, ROWS_PER_FILE);
    return new Measured(name, Samples.of(millis), Samples.of(requests), typical, Samples.of(openMillis),
        Samples.of(openRequests), typicalOpen);
  }

  /** 90% updates of random keys, 5% deletes, 5% inserts of new keys. */
  private static ChangeSet changes(Random random, int commit, OptionalLong recorded) {
    ChangeSet.Builder changes = ChangeSet.builder();
    Set<Long> keys = new HashSet<>();
    long existing = (long) FILES * ROWS_PER_FILE;
    while (keys.size() < CHANGES_PER_COMMIT) {
      int dice = random.nextInt(20);
      long id = dice == 0 ? existing + 1_000_000L * (commit + WARMUP_COMMITS + 1) + keys.size() : random.nextLong(existing);
      if (!keys.add(id)) {
        continue;
      }
      if (dice == 1) {
        changes.delete(Row.of(id));
      } else {
        changes.upsert(Row.of(id, "commit " + commit, random.nextInt(1_000)));
      }
    }
    return changes.txn(APP_ID, recorded, commit + WARMUP_COMMITS).build();
  }
}
