package io.mergesink.bench;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.SinkTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * bench/README.md, "Table formats": the same stream of upserts landed by the ingest engine in a Delta table
 * (deletion vectors), an Iceberg v3 table (deletion vectors) and a Paimon primary-key table (deletion
 * vectors), each table as the engine creates it by default. The stream is the peers suite's uniform
 * workload ({@link E2eWorkload}: 90% updates, 5% inserts, 5% deletes over uniformly picked live keys) as
 * Debezium change events, into tables preloaded with the same keys through the same engines; each round
 * lands its changes in every table, one flush per batch, and rotates which format goes first, so the ratio
 * to Delta is taken per round in the same conditions. After the rounds each table is read whole with its
 * format's own reader (Delta Kernel, Iceberg's generic reader, Paimon's reader) and checked against the
 * workload: every live key once, in its last version. Files and bytes per commit count what the rounds
 * added to the table's directory, over the engine's commits in them. The tables are written through the
 * engine's own storage, whatever {@code --storage} says.
 */
final class FormatUpserts {
  static final String NAME = "formats";
  private static final long SEED = 33;
  /** Changes per flush of the preload: the table the rounds start from was written in a few large commits. */
  private static final int PRELOAD_FLUSH = 100_000;

  /** A format under test, the reader that checks its table, and how the report names them. */
  private record Format(TableFormatName tableFormat, SinkTables reader, String label, String readerName) {}

  /** The formats, Delta first: the others' ratios are to it. */
  private static final List<Format> FORMATS = List.of(
      new Format(TableFormatName.DELTA, SinkTables.DELTA, "Delta (deletion vectors)", "Delta Kernel"),
      new Format(TableFormatName.ICEBERG, SinkTables.ICEBERG, "Iceberg v3 (deletion vectors)", "Iceberg's generic reader"),
      new Format(TableFormatName.PAIMON, SinkTables.PAIMON, "Paimon primary key (deletion vectors)", "Paimon's reader"));
  private static final int REFERENCE = 0;

  /** One format's table, the engine that writes it, and the engine's commits so far. */
  private record Landing(Format format, Path root, IngestEngine engine, AtomicLong commits) {
    static Landing open(Format format, Path root) {
      AtomicLong commits = new AtomicLong();
      IngestMetrics metrics = new IngestMetrics() {
        @Override
        public void committed(long latencyMs, long rowsWritten, RequestCounts requests) {
          commits.incrementAndGet();
        }
      };
      IngestEngine engine = new IngestEngine(EngineLanding.options(root).tableFormat(format.tableFormat()).build(), metrics);
      return new Landing(format, root, engine, commits);
    }

    String location() {
      return format.reader().location(root, EngineLanding.TABLE);
    }
  }

  private FormatUpserts() {}

  static void run(Path directory, BenchConfig config, ResultTable report) throws IOException {
    List<Landing> landings = new ArrayList<>();
    for (Format format : FORMATS) {
      landings.add(Landing.open(format, directory.resolve(NAME + "-" + format.tableFormat().configName())));
    }
    E2eWorkload workload = new E2eWorkload(E2eWorkload.Kind.MIXED_UNIFORM, SEED);
    WorkloadRecords stream = new WorkloadRecords();
    TableFootprint[] preloaded = new TableFootprint[FORMATS.size()];
    long[] preloadCommits = new long[FORMATS.size()];
    double[][] seconds = new double[FORMATS.size()][config.formatRounds()];
    try {
      for (long loaded = 0; loaded < config.formatBaseRows(); loaded += PRELOAD_FLUSH) {
        int count = (int) Math.min(PRELOAD_FLUSH, config.formatBaseRows() - loaded);
        List<KafkaRecord> inserts = stream.next(count, workload::insert);
        landings.forEach(landing -> EngineLanding.land(landing.engine(), inserts, count));
      }
      for (int which = 0; which < FORMATS.size(); which++) {
        preloaded[which] = TableFootprint.of(landings.get(which).root(), 0, 0);
        preloadCommits[which] = landings.get(which).commits().get();
      }
      System.err.printf("[bench] formats: %,d keys preloaded in %d formats%n", config.formatBaseRows(), FORMATS.size());
      for (int round = -1; round < config.formatRounds(); round++) {
        List<KafkaRecord> changes = stream.next(config.formatBatch() * config.formatBatches(), workload::next);
        for (int turn = 0; turn < FORMATS.size(); turn++) {
          int which = Math.floorMod(round + turn, FORMATS.size());
          long start = System.nanoTime();
          EngineLanding.land(landings.get(which).engine(), changes, config.formatBatch());
          if (round >= 0) {
            seconds[which][round] = Seconds.since(start);
          }
        }
      }
    } finally {
      landings.forEach(landing -> landing.engine().close());
    }
    String flushes = String.format("%s, %,d-change flushes into %,d keys", E2eWorkload.Kind.MIXED_UNIFORM.label(), config.formatBatch(),
        config.formatBaseRows());
    long changesPerRound = (long) config.formatBatch() * config.formatBatches();
    for (int which = 0; which < FORMATS.size(); which++) {
      Landing landing = landings.get(which);
      double[] rates = new double[config.formatRounds()];
      double[] ratios = new double[config.formatRounds()];
      for (int round = 0; round < config.formatRounds(); round++) {
        rates[round] = changesPerRound / seconds[which][round];
        ratios[round] = seconds[REFERENCE][round] / seconds[which][round];
      }
      Samples ratio = Samples.of(ratios);
      report.add(Result.info(landing.format().label() + ", " + flushes + " (changes/s; ÷ Delta per round)",
          Samples.of(rates).describe("%,.0f", "changes/s") + String.format("; %.2f (%.2f–%.2f, n=%d)", ratio.median(), ratio.min(),
              ratio.max(), ratio.count())));
      double readSeconds = readAndCheck(landing, workload);
      TableFootprint added = TableFootprint.of(landing.root(), landing.commits().get() - preloadCommits[which], readSeconds)
          .since(preloaded[which]);
      report.add(Result.info(landing.format().label() + ": written by the rounds, the whole table read with " + landing.format().readerName(),
          String.format("%,d rows = live keys, last versions; %s", workload.liveCount(), added.describe())));
    }
  }

  /** A workload's changes as records of {@link EngineLanding#PARTITION}, at consecutive offsets. */
  private static final class WorkloadRecords {
    private long nextOffset;

    /** The next {@code count} changes {@code next} gives, as records. */
    List<KafkaRecord> next(int count, Supplier<E2eWorkload.Change> next) {
      List<KafkaRecord> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        E2eWorkload.Change change = next.get();
        records.add(EngineLanding.record(nextOffset++, change.id(), DebeziumEvents.event(change)));
      }
      return records;
    }
  }

  /**
   * Reads the whole table with its format's reader and checks it holds the workload's live keys in their last versions;
   * returns the seconds both took.
   */
  private static double readAndCheck(Landing landing, E2eWorkload workload) {
    String location = landing.location();
    List<String> columns = landing.format().reader().schema(location).fieldNames();
    int id = columns.indexOf(E2eTables.CHECKED_COLUMNS.get(0));
    int name = columns.indexOf(E2eTables.CHECKED_COLUMNS.get(1));
    long start = System.nanoTime();
    List<Row> rows = landing.format().reader().readRows(location);
    E2eTables.requireMatches(landing.format().label() + " table " + location, rows.stream().map(row -> Row.of(row.get(id), row.get(name)))
        .toList(), workload);
    return Seconds.since(start);
  }
}
