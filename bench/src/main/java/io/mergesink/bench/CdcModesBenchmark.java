package io.mergesink.bench;

import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.kafka.connect.data.Struct;

/**
 * bench/README.md, "CDC modes": what each way of landing changes costs against a blind upsert, in one
 * run. The same Debezium change events (90% updates, 5% inserts, 5% deletes on a preloaded table,
 * one flush per batch) go through the ingest engine of each mode, each into its own table on local
 * disk: blind upsert (Kafka order wins, nothing read from the target), ordered by
 * {@code source.lsn}, soft deletes, history (SCD type 2) in Kafka order and ordered by {@code source.lsn}, and a table with
 * the Change Data Feed.
 * Rounds rotate which mode goes first; the ratios are per round, mode ÷ blind upsert throughput.
 *
 * <p>{@code java -Xmx8g -jar bench/target/mergesink-bench.jar cdc-modes [--keys=N] [--batch=N]
 * [--batches=N] [--rounds=N] [--quick]}
 */
final class CdcModesBenchmark {
  static final String SUITE = "cdc-modes";
  private static final double UPDATE_SHARE = 0.90;
  private static final double INSERT_SHARE = 0.05;
  private static final long SEED = 14;

  /** One way of landing the changes: the engine options that select it. */
  private record Mode(String name, UnaryOperator<IngestOptions.Builder> options) {}

  private static final List<Mode> MODES = List.of(
      new Mode("upsert, blind (Kafka order)", builder -> builder),
      new Mode("upsert ordered by source.lsn", builder -> builder.changeSemantics(
          new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.HARD, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))),
      // a table whose topic grew: the marker a task writes at a new partition, set here from the start
      new Mode("upsert, topic grown (ordered by source.lsn)", builder -> builder.tableProperties(
          Map.of("mergesink.lookup.tableScopeTopics", EngineLanding.TOPIC))),
      new Mode("upsert, soft deletes", builder -> builder.changeSemantics(
          new ChangeSemantics(UpsertOrder.NONE, DeleteMode.SOFT, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))),
      new Mode("history (SCD type 2)", builder -> builder.writeMode(WriteMode.HISTORY)),
      new Mode("history ordered by source.lsn", builder -> builder.writeMode(WriteMode.HISTORY).changeSemantics(
          new ChangeSemantics(UpsertOrder.parse("source.lsn"), DeleteMode.HARD, ChangeSemantics.DEFAULT_DELETED_KEYS_MAX))),
      new Mode("upsert, Change Data Feed on", builder -> builder.tableProperties(Map.of("delta.enableChangeDataFeed", "true"))));

  private CdcModesBenchmark() {}

  public static void main(String[] args) throws IOException {
    Settings settings = Settings.parse(args);
    Path dir = Files.createTempDirectory("mergesink-bench-cdc-modes-");
    List<IngestEngine> engines = new ArrayList<>();
    for (int i = 0; i < MODES.size(); i++) {
      engines.add(engine(MODES.get(i), dir.resolve("mode-" + i)));
    }
    try {
      ChangeEvents events = new ChangeEvents(new Random(SEED));
      List<KafkaRecord> preload = events.inserts(settings.keys());
      for (IngestEngine engine : engines) {
        EngineLanding.land(engine, preload, settings.batch());
      }
      System.err.printf("[bench] cdc-modes: %,d keys preloaded in %d modes%n", settings.keys(), MODES.size());
      double[][] seconds = new double[MODES.size()][settings.rounds()];
      for (int round = -1; round < settings.rounds(); round++) {
        List<KafkaRecord> changes = events.changes(settings.batch() * settings.batches());
        for (int turn = 0; turn < MODES.size(); turn++) {
          int which = Math.floorMod(round + turn, MODES.size());
          long start = System.nanoTime();
          EngineLanding.land(engines.get(which), changes, settings.batch());
          if (round >= 0) {
            seconds[which][round] = Seconds.since(start);
          }
        }
      }
      System.out.println();
      System.out.println(report(settings, seconds).toMarkdown());
    } finally {
      engines.forEach(IngestEngine::close);
      TempDirectories.deleteRecursively(dir);
    }
  }

  private static ResultTable report(Settings settings, double[][] seconds) {
    ResultTable report = new ResultTable();
    long changesPerRound = (long) settings.batch() * settings.batches();
    String batches = String.format("%,d-change flushes into %,d keys", settings.batch(), settings.keys());
    for (int mode = 0; mode < MODES.size(); mode++) {
      double[] rates = new double[settings.rounds()];
      double[] ratios = new double[settings.rounds()];
      for (int round = 0; round < settings.rounds(); round++) {
        rates[round] = changesPerRound / seconds[mode][round];
        ratios[round] = seconds[0][round] / seconds[mode][round];
      }
      Samples ratio = Samples.of(ratios);
      report.add(Result.info(MODES.get(mode).name() + ", " + batches + " (changes/s; ÷ blind upsert per round)",
          Samples.of(rates).describe("%,.0f", "changes/s") + String.format("; %.2f (%.2f–%.2f, n=%d)", ratio.median(),
              ratio.min(), ratio.max(), ratio.count())));
    }
    return report;
  }

  private static IngestEngine engine(Mode mode, Path root) {
    return new IngestEngine(mode.options().apply(EngineLanding.options(root)).build(), new IngestMetrics() {});
  }

  /** Debezium change events of the customers table with consecutive offsets, and the keys they leave live. */
  private static final class ChangeEvents {
    private final Random random;
    private final Map<Long, Integer> versions = new HashMap<>();
    private final List<Long> live = new ArrayList<>();
    private long nextId;
    private long nextOffset;

    ChangeEvents(Random random) {
      this.random = random;
    }

    List<KafkaRecord> inserts(int count) {
      List<KafkaRecord> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        records.add(insert());
      }
      return records;
    }

    /** {@code count} changes: updates of live keys, inserts of new ones, deletes of live ones. */
    List<KafkaRecord> changes(int count) {
      List<KafkaRecord> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        double dice = random.nextDouble();
        if (live.isEmpty() || (dice >= UPDATE_SHARE && dice < UPDATE_SHARE + INSERT_SHARE)) {
          records.add(insert());
        } else if (dice < UPDATE_SHARE) {
          long id = live.get(random.nextInt(live.size()));
          records.add(record(id, DebeziumEvents.upsert("u", id, versions.merge(id, 1, Integer::sum))));
        } else {
          int index = random.nextInt(live.size());
          long id = live.get(index);
          live.set(index, live.get(live.size() - 1));
          live.remove(live.size() - 1);
          records.add(record(id, DebeziumEvents.delete(id, versions.merge(id, 1, Integer::sum))));
        }
      }
      return records;
    }

    private KafkaRecord insert() {
      long id = nextId++;
      live.add(id);
      return record(id, DebeziumEvents.upsert("c", id, versions.merge(id, 1, Integer::sum)));
    }

    private KafkaRecord record(long id, Struct value) {
      return EngineLanding.record(nextOffset++, id, value);
    }
  }

  /** The command line: {@code --keys}, {@code --batch}, {@code --batches} (per round), {@code --rounds}, {@code --quick}. */
  private record Settings(int keys, int batch, int batches, int rounds) {
    static Settings parse(String[] args) {
      boolean quick = List.of(args).contains("--quick");
      int keys = quick ? 20_000 : 200_000;
      int batch = 10_000;
      int batches = quick ? 2 : 5;
      int rounds = quick ? 2 : 5;
      for (String arg : args) {
        if (arg.startsWith("--keys=")) {
          keys = Integer.parseInt(arg.substring("--keys=".length()));
        } else if (arg.startsWith("--batch=")) {
          batch = Integer.parseInt(arg.substring("--batch=".length()));
        } else if (arg.startsWith("--batches=")) {
          batches = Integer.parseInt(arg.substring("--batches=".length()));
        } else if (arg.startsWith("--rounds=")) {
          rounds = Integer.parseInt(arg.substring("--rounds=".length()));
        } else if (!arg.equals(SUITE) && !arg.equals("--quick")) {
          throw new IllegalArgumentException("unknown argument " + arg + "; expected " + SUITE
              + " [--keys=N] [--batch=N] [--batches=N] [--rounds=N] [--quick]");
        }
      }
      return new Settings(keys, batch, batches, rounds);
    }
  }
}
