package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.mergeinto.Assignment;
import io.mergesink.core.mergeinto.Condition;
import io.mergesink.core.mergeinto.MergeInto;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The MERGE engine against the direct path (docs/design.md, "MERGE engine"): the same change sets
 * (90% updates, 5% inserts, 5% deletes) into three deletion-vector tables that start with the same
 * rows: committed as change sets directly; through {@code MergeInto} as a blind upsert (DELETE when
 * the source says so, else UPDATE SET every column, INSERT), which must be no slower; and through
 * {@code MergeInto} with an ordering condition on the target ({@code UPDATE ... WHEN s.updated_at >
 * t.updated_at}), which reads every matched row's {@code updated_at}: what ordered upserts will cost;
 * and committed directly into a table with Change Data Feed, which reads every replaced row back and
 * writes change data files: what the feed costs. Rounds rotate which table goes first.
 */
final class MergeIntoCost {
  static final String NAME = "merge-into";
  private static final double UPDATE_SHARE = 0.9;
  private static final double INSERT_SHARE = 0.05;
  private static final double TARGET_RATIO = 0.95;
  private static final int BASE_FILES = 8;
  private static final long SEED = 14;
  private static final String OP = "op";
  /** Direct, MERGE blind, MERGE ordered, direct with Change Data Feed. */
  private static final int TABLES = 4;
  private static final StructType SOURCE = CdcRows.SCHEMA.add(new StructField(OP, PrimitiveType.STRING, false));

  private MergeIntoCost() {}

  static void run(BenchTables tables, BenchConfig config, ResultTable report) throws IOException {
    DeltaTable directTable = tables.create("merge-direct", MergeStrategy.DELETION_VECTORS);
    DeltaTable blindTable = tables.create("merge-blind", MergeStrategy.DELETION_VECTORS);
    DeltaTable orderedTable = tables.create("merge-ordered", MergeStrategy.DELETION_VECTORS);
    DeltaTable feedTable = tables.create("merge-cdf", MergeStrategy.DELETION_VECTORS, Map.of("delta.enableChangeDataFeed", "true"));
    KeySpace keys = new KeySpace(SEED);
    BenchTables.bulkLoad(directTable, keys, config.upsertBaseRows(), BASE_FILES);
    BenchTables.bulkLoad(blindTable, new KeySpace(SEED), config.upsertBaseRows(), BASE_FILES);
    BenchTables.bulkLoad(orderedTable, new KeySpace(SEED), config.upsertBaseRows(), BASE_FILES);
    BenchTables.bulkLoad(feedTable, new KeySpace(SEED), config.upsertBaseRows(), BASE_FILES);
    TableWriter direct = BenchTables.writer(directTable, MergeStrategy.DELETION_VECTORS);
    MergeInto blind = MergeInto.on(BenchTables.writer(blindTable, MergeStrategy.DELETION_VECTORS));
    MergeInto ordered = MergeInto.on(BenchTables.writer(orderedTable, MergeStrategy.DELETION_VECTORS));
    TableWriter feed = BenchTables.writer(feedTable, MergeStrategy.DELETION_VECTORS);
    MergeSpec blindSpec = spec(Condition.always());
    MergeSpec orderedSpec = spec(Condition.withTarget(List.of("updated_at"),
        (s, t) -> t.get("updated_at") == null || (Long) s.get("updated_at") > (Long) t.get("updated_at")));

    int rounds = config.upsertRounds();
    double[][] seconds = new double[TABLES][rounds];
    long rowsPerRound = (long) config.upsertBatches() * config.flushChanges();
    for (int round = -1; round < rounds; round++) {
      List<ChangeSet> batches = new ArrayList<>();
      List<List<Row>> sources = new ArrayList<>();
      for (int i = 0; i < config.upsertBatches(); i++) {
        ChangeSet batch = keys.mixed(config.flushChanges(), UPDATE_SHARE, INSERT_SHARE);
        batches.add(batch);
        sources.add(source(batch));
      }
      double[] taken = new double[TABLES];
      for (int turn = 0; turn < TABLES; turn++) {
        int which = Math.floorMod(round + turn, TABLES);
        long start = System.nanoTime();
        for (int i = 0; i < batches.size(); i++) {
          switch (which) {
            case 0 -> BenchTables.commit(direct, batches.get(i));
            case 1 -> execute(blind, blindSpec, sources.get(i));
            case 2 -> execute(ordered, orderedSpec, sources.get(i));
            default -> BenchTables.commit(feed, batches.get(i));
          }
        }
        taken[which] = Seconds.since(start);
      }
      if (round >= 0) {
        for (int which = 0; which < TABLES; which++) {
          seconds[which][round] = taken[which];
        }
      }
    }
    double[] blindRatios = new double[rounds];
    double[] orderedRatios = new double[rounds];
    double[] feedRatios = new double[rounds];
    double[][] rates = new double[TABLES][rounds];
    for (int round = 0; round < rounds; round++) {
      blindRatios[round] = seconds[0][round] / seconds[1][round];
      orderedRatios[round] = seconds[0][round] / seconds[2][round];
      feedRatios[round] = seconds[0][round] / seconds[3][round];
      for (int which = 0; which < TABLES; which++) {
        rates[which][round] = rowsPerRound / seconds[which][round];
      }
    }
    String batch = String.format("%,d-change batches, DV", config.flushChanges());
    report.add(Result.info("direct change sets, " + batch + " (rows/s)", Samples.of(rates[0]).describe("%,.0f", "rows/s")));
    report.add(Result.info("MERGE blind upsert, " + batch + " (rows/s)", Samples.of(rates[1]).describe("%,.0f", "rows/s")));
    report.add(Result.info("MERGE ordered by updated_at (reads the target), " + batch + " (rows/s)",
        Samples.of(rates[2]).describe("%,.0f", "rows/s")));
    Samples blindRatio = Samples.of(blindRatios);
    report.add(new Result("MERGE blind upsert / direct throughput, same rows, same run",
        String.format("per-round ratio %.2f (%.2f–%.2f, n=%d)", blindRatio.median(), blindRatio.min(), blindRatio.max(), blindRatio.count()),
        String.format("%.2f", blindRatio.median()), "≥ " + TARGET_RATIO + " (no slower, within noise)",
        blindRatio.median() >= TARGET_RATIO));
    Samples orderedRatio = Samples.of(orderedRatios);
    report.add(Result.info("MERGE ordered / direct throughput, same rows, same run", String.format("per-round ratio %.2f (%.2f–%.2f, n=%d)",
        orderedRatio.median(), orderedRatio.min(), orderedRatio.max(), orderedRatio.count())));
    report.add(Result.info("direct change sets with Change Data Feed, " + batch + " (rows/s)",
        Samples.of(rates[3]).describe("%,.0f", "rows/s")));
    Samples feedRatio = Samples.of(feedRatios);
    report.add(Result.info("Change Data Feed / direct throughput, same rows, same run", String.format("per-round ratio %.2f (%.2f–%.2f, n=%d)",
        feedRatio.median(), feedRatio.min(), feedRatio.max(), feedRatio.count())));
  }

  /** DELETE when the source says so; UPDATE every column when {@code update} holds; INSERT the rest. */
  private static MergeSpec spec(Condition update) {
    List<Assignment> all = new ArrayList<>();
    for (StructField field : CdcRows.SCHEMA.fields()) {
      if (!field.name().equals(CdcRows.KEY_COLUMN)) {
        all.add(Assignment.fromSource(field.name()));
      }
    }
    return MergeSpec.builder(SOURCE, CdcRows.KEY)
        .whenMatched(Condition.onSource(s -> "d".equals(s.get(OP)))).thenDelete()
        .whenMatched(update).thenUpdate(all)
        .whenNotMatched(Condition.onSource(s -> !"d".equals(s.get(OP)))).thenInsert(all)
        .build();
  }

  /** The change set as source rows: each upsert with {@code op = 'u'}, each delete as its key with {@code op = 'd'}. */
  private static List<Row> source(ChangeSet batch) {
    List<Row> rows = new ArrayList<>(batch.upserts().size() + batch.deletes().size());
    int width = CdcRows.SCHEMA.size();
    for (Row upsert : batch.upserts()) {
      Object[] values = java.util.Arrays.copyOf(upsert.toArray(), width + 1);
      values[width] = "u";
      rows.add(Row.of(values));
    }
    for (Row key : batch.deletes()) {
      Object[] values = new Object[width + 1];
      values[0] = key.get(0);
      values[width] = "d";
      rows.add(Row.of(values));
    }
    return rows;
  }

  private static void execute(MergeInto engine, MergeSpec spec, List<Row> source) throws IOException {
    try {
      engine.execute(spec, source);
    } catch (FencedException e) {
      throw new IllegalStateException("benchmark writer fenced", e);
    }
  }
}
