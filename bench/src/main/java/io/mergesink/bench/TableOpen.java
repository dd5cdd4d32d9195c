package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.CheckpointWriter;
import io.mergesink.core.log.LogCodec;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * bench/README.md, "Targets", "Opening a table with 10k commits of history: bounded by the last checkpoint, not by
 * history": {@code DeltaTable.snapshot()} on a fresh {@code DeltaTable} for a table with a long and
 * one with a short history of txn-only commits (four Kafka partitions each) with a checkpoint every
 * ten commits, so both latest checkpoints hold the same actions. The history is written straight
 * to the log (commit files plus {@link CheckpointWriter} every ten versions), which is what the
 * writer leaves behind, in a fraction of the time.
 *
 * <p>It also times txn-only commits through a writer on both tables: each commit re-reads the
 * table, so this shows whether the commit path is bounded by the checkpoint too.
 */
final class TableOpen {
  static final String NAME = "table-open";
  private static final int PARTITIONS = 4;
  private static final int CHECKPOINT_INTERVAL = WriterOptions.DEFAULT_CHECKPOINT_INTERVAL;
  private static final int OPEN_WARMUPS = 3;
  private static final int COMMIT_WARMUPS = 5;
  private static final int MEASURED_COMMITS = 20;
  private static final double TARGET_RATIO = 1.5;

  private TableOpen() {}

  static void run(Storage storage, BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable longHistory = tables.createAppend("open-long-history");
    DeltaTable shortHistory = tables.createAppend("open-short-history");
    writeHistory(storage, longHistory, config.longHistoryCommits());
    writeHistory(storage, shortHistory, config.shortHistoryCommits());
    String longName = String.format("%,d commits", config.longHistoryCommits());
    String shortName = String.format("%,d commits", config.shortHistoryCommits());

    int repetitions = config.openRepetitions();
    double[] longMillis = new double[repetitions];
    double[] shortMillis = new double[repetitions];
    for (int open = -OPEN_WARMUPS; open < repetitions; open++) {
      double longTime = timedOpen(storage, longHistory.root());
      double shortTime = timedOpen(storage, shortHistory.root());
      if (open >= 0) {
        longMillis[open] = longTime;
        shortMillis[open] = shortTime;
      }
    }
    Samples longOpen = Samples.of(longMillis);
    Samples shortOpen = Samples.of(shortMillis);
    report.add(Result.info("open table (snapshot()), " + longName + " of history", longOpen.describe("%.1f", "ms")));
    report.add(Result.info("open table (snapshot()), " + shortName + " of history", shortOpen.describe("%.1f", "ms")));
    double ratio = longOpen.median() / shortOpen.median();
    report.add(new Result("table open " + longName + " / " + shortName + " of history", "ratio of the medians above",
        String.format("%.2f", ratio), "≤ " + TARGET_RATIO + " (bounded by checkpoint)", ratio <= TARGET_RATIO));

    Samples longCommit = Samples.of(commitTimes(longHistory, config.longHistoryCommits()));
    Samples shortCommit = Samples.of(commitTimes(shortHistory, config.shortHistoryCommits()));
    report.add(Result.info("txn-only commit through the writer, " + longName + " of history", longCommit.describe("%.1f", "ms")));
    report.add(Result.info("txn-only commit through the writer, " + shortName + " of history", shortCommit.describe("%.1f", "ms")
        + String.format("; ratio long/short %.2f", longCommit.median() / shortCommit.median())));
  }

  /** Commits versions 1 to {@code commits - 1} after the table's version 0, with a checkpoint every ten. */
  private static void writeHistory(Storage storage, DeltaTable table, int commits) throws IOException {
    Snapshot snapshot = table.snapshot();
    String root = table.root();
    for (long version = 1; version < commits; version++) {
      List<Action> txns = txns(version);
      if (!storage.writeIfAbsent(LogPaths.commitFile(root, version), LogCodec.serialize(txns))) {
        throw new IllegalStateException("table " + root + " already has a commit " + version + "; use an empty --dir");
      }
      snapshot = snapshot.withCommit(version, txns);
      if (version % CHECKPOINT_INTERVAL == 0) {
        CheckpointWriter.write(storage, root, snapshot);
      }
    }
  }

  private static List<Action> txns(long version) {
    List<Action> txns = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      txns.add(new SetTransaction(appId(partition), version, now));
    }
    return txns;
  }

  private static String appId(int partition) {
    return "bench:cdc:" + partition;
  }

  private static double[] commitTimes(DeltaTable table, long firstOffset) throws IOException {
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults());
    double[] millis = new double[MEASURED_COMMITS];
    for (int commit = -COMMIT_WARMUPS; commit < MEASURED_COMMITS; commit++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        changes.txn(appId(partition), writer.snapshot().txnVersion(appId(partition)), firstOffset + COMMIT_WARMUPS + commit);
      }
      ChangeSet txnOnly = changes.build();
      long start = System.nanoTime();
      BenchTables.commit(writer, txnOnly);
      if (commit >= 0) {
        millis[commit] = Seconds.millisSince(start);
      }
    }
    return millis;
  }

  private static double timedOpen(Storage storage, String root) throws IOException {
    long start = System.nanoTime();
    DeltaTable.forPath(storage, root).snapshot();
    return Seconds.millisSince(start);
  }
}
