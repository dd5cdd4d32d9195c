package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.core.writer.MergingTableWriter;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * History tables against blind upserts (docs/design.md, "History tables"): the same change sets
 * (90% updates, 5% inserts, 5% deletes) into a deletion-vector table that keeps the latest row and
 * into one that keeps every version (the record's columns plus {@code __valid_from},
 * {@code __valid_to}, {@code __current}). A history flush does what the connector's does: reads
 * the current rows of the changed keys through the key index (all columns), appends each one
 * closed, and replaces it by the new version; so it writes about twice the rows and reads the
 * replaced ones. Rounds alternate which table goes first.
 */
final class HistoryCost {
  static final String NAME = "history";
  private static final double UPDATE_SHARE = 0.9;
  private static final double INSERT_SHARE = 0.05;
  private static final int BASE_FILES = 8;
  private static final long SEED = 15;
  private static final StructType SCHEMA = CdcRows.SCHEMA
      .add(new StructField("__valid_from", PrimitiveType.TIMESTAMP, true))
      .add(new StructField("__valid_to", PrimitiveType.TIMESTAMP, true))
      .add(new StructField("__current", PrimitiveType.BOOLEAN, false));
  private static final int WIDTH = CdcRows.SCHEMA.size();

  private HistoryCost() {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable blindTable = tables.create("history-blind", MergeStrategy.DELETION_VECTORS);
    DeltaTable historyTable = tables.table("history-versions");
    historyTable.createIfAbsent(new TableSpec(SCHEMA, CdcRows.KEY, MergeStrategy.DELETION_VECTORS, CurrentRowColumn.toProperty("__current")));
    KeySpace keys = new KeySpace(SEED);
    BenchTables.bulkLoad(blindTable, keys, config.upsertBaseRows(), BASE_FILES);
    loadVersions(historyTable, new KeySpace(SEED), config.upsertBaseRows());
    TableWriter blind = BenchTables.writer(blindTable, MergeStrategy.DELETION_VECTORS);
    MergingTableWriter history = BenchTables.writer(historyTable, MergeStrategy.DELETION_VECTORS);

    int rounds = config.upsertRounds();
    double[] blindRates = new double[rounds];
    double[] historyRates = new double[rounds];
    double[] ratios = new double[rounds];
    long rowsPerRound = (long) config.upsertBatches() * config.flushChanges();
    long time = 1;
    for (int round = -1; round < rounds; round++) {
      List<ChangeSet> batches = new ArrayList<>();
      for (int i = 0; i < config.upsertBatches(); i++) {
        batches.add(keys.mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE));
      }
      double blindSeconds = 0;
      double historySeconds = 0;
      for (int turn = 0; turn < 2; turn++) {
        long start = System.nanoTime();
        if (Math.floorMod(round + turn, 2) == 0) {
          for (ChangeSet batch : batches) {
            BenchTables.commit(blind, batch);
          }
          blindSeconds = Seconds.since(start);
        } else {
          for (ChangeSet batch : batches) {
            BenchTables.commit(history, versions(history.liveRows(), batch, time++));
          }
          historySeconds = Seconds.since(start);
        }
      }
      if (round >= 0) {
        blindRates[round] = rowsPerRound / blindSeconds;
        historyRates[round] = rowsPerRound / historySeconds;
        ratios[round] = blindSeconds / historySeconds;
      }
    }
    String batch = String.format("%,d-change batches, DV", config.flushChanges());
    report.add(Result.info("blind upsert, " + batch + " (changes/s)", Samples.of(blindRates).describe("%,.0f", "changes/s")));
    report.add(Result.info("history (SCD2: read, close, add), " + batch + " (changes/s)",
        Samples.of(historyRates).describe("%,.0f", "changes/s")));
    Samples ratio = Samples.of(ratios);
    report.add(Result.info("history / blind upsert throughput, same changes, same run", String.format(
        "per-round ratio %.2f (%.2f–%.2f, n=%d)", ratio.median(), ratio.min(), ratio.max(), ratio.count())));
  }

  /** {@code rows} fresh keys as current versions, in {@value #BASE_FILES} append commits. */
  private static void loadVersions(DeltaTable table, KeySpace keys, long rows) throws IOException {
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults().withTargetFileSizeBytes(Long.MAX_VALUE));
    long remaining = rows;
    for (int file = 0; file < BASE_FILES; file++) {
      int count = Math.toIntExact(remaining / (BASE_FILES - file));
      ChangeSet.Builder versions = ChangeSet.builder();
      keys.inserts(count).upserts().forEach(row -> versions.upsert(opened(row, 0)));
      BenchTables.commit(writer, versions.build());
      remaining -= count;
    }
  }

  /** The history change set of {@code batch} at {@code time}: the replaced current rows closed, the new versions current. */
  private static ChangeSet versions(LiveRows live, ChangeSet batch, long time) throws IOException {
    List<Row> keys = new ArrayList<>(batch.upserts().size() + batch.deletes().size());
    batch.upserts().forEach(row -> keys.add(row.project(new int[] {0})));
    keys.addAll(batch.deletes());
    Row[] current = live.read(keys.toArray(new Row[0]), SCHEMA.fieldNames());
    ChangeSet.Builder versions = ChangeSet.builder();
    for (Row row : current) {
      if (row != null) {
        Object[] values = row.toArray();
        values[WIDTH + 1] = time;
        values[WIDTH + 2] = false;
        versions.append(Row.of(values));
      }
    }
    batch.upserts().forEach(row -> versions.upsert(opened(row, time)));
    batch.deletes().forEach(versions::delete);
    return versions.build();
  }

  private static Row opened(Row row, long time) {
    Object[] values = Arrays.copyOf(row.toArray(), SCHEMA.size());
    values[WIDTH] = time;
    values[WIDTH + 2] = true;
    return Row.of(values);
  }
}
