package io.mergesink.bench;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.cut.CutCandidates;
import io.mergesink.ingest.cut.CutPublisher;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.TableFormats;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.TransactionBoundaries;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.TransferRecords;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * bench/README.md, "Transactions": what whole source transactions and consistent cuts cost, in one run.
 * The same transactional stream (docs/transactions.md: transfers between accounts of two tables, each
 * recorded in a third table, every source transaction three changes in three topics, its {@code END}
 * read as soon as its changes are) goes through one task's ingest engine three ways, each into tables
 * of its own on local disk, flushing after every {@code --flush-every} changes: with
 * {@code transaction.boundaries=off}, {@code on}, and {@code on} with consistent cuts
 * ({@code cut.interval.ms}; the task holds the transaction topic and publishes the cuts). Per way:
 * changes/s over the stream, the commit latency of each table commit, and with cuts the cut lag after
 * each flush: the source time from the newest published cut to the newest change committed. Rounds
 * rotate which way goes first; the ratios are per round, way ÷ {@code off} throughput.
 *
 * <p>{@code java -Xmx4g -jar bench/target/mergesink-bench.jar transactions [--transfers=N] [--accounts=N]
 * [--flush-every=N] [--cut-interval-ms=N] [--rounds=N] [--formats=delta,iceberg,paimon] [--quick]}
 */
final class TransactionsBenchmark {
  static final String SUITE = "transactions";
  /** Source time between transactions. */
  private static final long STEP_MS = 10;
  private static final long SEED = 21;

  /** A way of landing the stream. */
  private enum Way {
    OFF("transaction.boundaries=off"),
    WHOLE("transaction.boundaries=on"),
    CUTS("transaction.boundaries=on, cut.interval.ms");

    private final String label;

    Way(String label) {
      this.label = label;
    }
  }

  /** What one run of a way measured. */
  private record Run(double seconds, List<Double> commitMillis, List<Double> cutLagMillis) {}

  private TransactionsBenchmark() {}

  public static void main(String[] args) throws IOException {
    Settings settings = Settings.parse(args);
    TransferRecords bank = new TransferRecords(settings.accounts());
    Random random = new Random(SEED);
    for (int transfer = 1; transfer <= settings.transfers(); transfer++) {
      bank.transfer(random, transfer * STEP_MS);
    }
    bank.transfer(random, (settings.transfers() + 1) * STEP_MS + settings.cutIntervalMs()); // closes the last interval
    long changes = bank.partitions().keySet().stream().mapToLong(table -> bank.records(table).size()).sum();
    ResultTable report = new ResultTable();
    for (TableFormatName format : settings.formats()) {
      Map<Way, List<Run>> runs = new HashMap<>();
      Way[] ways = Way.values();
      for (int round = -1; round < settings.rounds(); round++) {
        for (int turn = 0; turn < ways.length; turn++) {
          Way way = ways[Math.floorMod(round + turn, ways.length)];
          Run run = run(way, format, bank, settings);
          if (round >= 0) {
            runs.computeIfAbsent(way, w -> new ArrayList<>()).add(run);
          }
          System.err.printf("[bench] transactions: %s, %s, round %d: %.1f s%n", format.configName(), way.label, round, run.seconds());
        }
      }
      report(report, format, settings, changes, runs);
    }
    System.out.println();
    System.out.println(report.toMarkdown());
  }

  private static void report(ResultTable report, TableFormatName format, Settings settings, long changes, Map<Way, List<Run>> runs) {
    String stream = String.format("%s, %,d transactions (%,d changes in 3 tables), a flush every %,d changes", format.configName(),
        settings.transfers(), changes, settings.flushEvery());
    for (Way way : Way.values()) {
      List<Run> measured = runs.get(way);
      double[] rates = measured.stream().mapToDouble(run -> changes / run.seconds()).toArray();
      double[] ratios = new double[measured.size()];
      for (int round = 0; round < measured.size(); round++) {
        ratios[round] = runs.get(Way.OFF).get(round).seconds() / measured.get(round).seconds();
      }
      Samples ratio = Samples.of(ratios);
      String label = way == Way.CUTS ? way.label + "=" + settings.cutIntervalMs() : way.label;
      report.add(Result.info(label + ", " + stream + " (changes/s; ÷ off per round)", Samples.of(rates).describe("%,.0f", "changes/s")
          + String.format("; %.2f (%.2f–%.2f, n=%d)", ratio.median(), ratio.min(), ratio.max(), ratio.count())));
      report.add(Result.info(label + ", " + format.configName() + ": commit latency per table commit",
          Samples.of(measured.stream().flatMap(run -> run.commitMillis().stream()).mapToDouble(Double::doubleValue).toArray())
              .describe("%,.0f", "ms")));
      if (way == Way.CUTS) {
        report.add(Result.info(label + ", " + format.configName() + ": cut lag after each flush (source time from the newest cut"
            + " to the newest change committed)", Samples.of(measured.stream().flatMap(run -> run.cutLagMillis().stream())
                .mapToDouble(Double::doubleValue).toArray()).describe("%,.0f", "ms")));
      }
    }
  }

  /** Lands the whole stream one way into fresh tables; the cut lag is read outside the timed part. */
  private static Run run(Way way, TableFormatName format, TransferRecords bank, Settings settings) throws IOException {
    Path root = Files.createTempDirectory("mergesink-bench-transactions-");
    List<Double> commits = new ArrayList<>();
    IngestMetrics metrics = new IngestMetrics() {
      @Override
      public void committed(long latencyMs, long rowsWritten, RequestCounts requests) {
        commits.add((double) latencyMs);
      }
    };
    Map<String, TransactionEvent> ends = new ConcurrentHashMap<>();
    TransactionEnds read = id -> Optional.ofNullable(ends.get(id));
    CutCandidates candidates = way == Way.CUTS ? new CutCandidates(settings.cutIntervalMs()) : null;
    IngestOptions options = IngestOptions.builder(root.toString(), "bench").tableFormat(format).tableNameFormat("${source.table}")
        .commitInterval(Duration.ofDays(1))
        .transactions(new TransactionOptions(way == Way.OFF ? TransactionBoundaries.OFF : TransactionBoundaries.ON,
            TransferRecords.TRANSACTION_TOPIC, Map.of(), way == Way.CUTS ? Duration.ofMillis(settings.cutIntervalMs()) : Duration.ZERO))
        .build();
    List<Double> lags = new ArrayList<>();
    double seconds = 0;
    try (IngestEngine engine = new IngestEngine(options, metrics, read, candidates);
        TableFormat tables = TableFormats.of(options)) {
      List<KafkaPartition> partitions = new ArrayList<>(bank.partitions().values());
      if (candidates != null) {
        partitions.add(TransferRecords.transactionTopic());
      }
      engine.open(partitions);
      engine.seeksApplied();
      Map<String, Integer> delivered = new HashMap<>();
      int sinceFlush = 0;
      for (TransferRecords.End end : bank.ends()) {
        long start = System.nanoTime();
        for (String table : bank.partitions().keySet()) {
          int upTo = bank.changesUpTo(table, end.offset());
          for (KafkaRecord record : bank.records(table).subList(delivered.getOrDefault(table, 0), upTo)) {
            engine.accept(record);
            sinceFlush++;
          }
          delivered.put(table, upTo);
        }
        ends.put(end.event().id(), end.event());
        if (candidates != null) {
          candidates.ended(TransferRecords.transactionTopic(), end.offset(), end.event());
        }
        boolean flush = sinceFlush >= settings.flushEvery();
        if (flush) {
          EngineLanding.flush(engine);
          sinceFlush = 0;
        }
        seconds += Seconds.since(start);
        if (flush && candidates != null) {
          newestCutTime(tables).ifPresent(cut -> lags.add((double) (newestCommitted(engine, bank) - cut)));
        }
      }
      long start = System.nanoTime();
      EngineLanding.flush(engine);
      EngineLanding.flush(engine); // with cuts: the cut the last flush's commits reached
      seconds += Seconds.since(start);
    } finally {
      TempDirectories.deleteRecursively(root);
    }
    return new Run(seconds, commits, lags);
  }

  /** The source time of the newest change the tables hold: of the record before each partition's committed offset. */
  private static long newestCommitted(IngestEngine engine, TransferRecords bank) {
    long newest = 0;
    Map<KafkaPartition, Long> committed = engine.committedOffsets();
    for (String table : bank.partitions().keySet()) {
      Long next = committed.get(TransferRecords.partition(table));
      if (next != null && next > 0) {
        newest = Math.max(newest, bank.records(table).get((int) (next - 1)).timestamp());
      }
    }
    return newest;
  }

  /** The source time of the newest cut in the cut table, if it has one. */
  private static Optional<Long> newestCutTime(TableFormat tables) throws IOException {
    Optional<FormatTable> cuts = tables.open(CutPublisher.TABLE, List.of(), List.of());
    if (cuts.isEmpty()) {
      return Optional.empty();
    }
    cuts.get().refresh();
    long newest = -1;
    long time = 0;
    try (RowScan rows = cuts.get().scan(List.of(CutPublisher.CUT, CutPublisher.SOURCE_TS_MS), Map.of())) {
      while (rows.hasNext()) {
        Row row = rows.next();
        if ((Long) row.get(0) > newest) {
          newest = (Long) row.get(0);
          time = (Long) row.get(1);
        }
      }
    }
    return newest < 0 ? Optional.empty() : Optional.of(time);
  }

  /** The command line. */
  private record Settings(int transfers, int accounts, int flushEvery, long cutIntervalMs, int rounds, List<TableFormatName> formats) {
    static Settings parse(String[] args) {
      boolean quick = List.of(args).contains("--quick");
      int transfers = quick ? 3_000 : 20_000;
      int accounts = 1_000;
      int flushEvery = 600;
      long cutIntervalMs = 1_000;
      int rounds = quick ? 2 : 5;
      List<TableFormatName> formats = List.of(TableFormatName.DELTA);
      for (String arg : args) {
        if (arg.startsWith("--transfers=")) {
          transfers = Integer.parseInt(arg.substring("--transfers=".length()));
        } else if (arg.startsWith("--accounts=")) {
          accounts = Integer.parseInt(arg.substring("--accounts=".length()));
        } else if (arg.startsWith("--flush-every=")) {
          flushEvery = Integer.parseInt(arg.substring("--flush-every=".length()));
        } else if (arg.startsWith("--cut-interval-ms=")) {
          cutIntervalMs = Long.parseLong(arg.substring("--cut-interval-ms=".length()));
        } else if (arg.startsWith("--rounds=")) {
          rounds = Integer.parseInt(arg.substring("--rounds=".length()));
        } else if (arg.startsWith("--formats=")) {
          formats = Arrays.stream(arg.substring("--formats=".length()).split(","))
              .map(name -> TableFormatName.valueOf(name.trim().toUpperCase(Locale.ROOT))).toList();
        } else if (!arg.equals(SUITE) && !arg.equals("--quick")) {
          throw new IllegalArgumentException("unknown argument " + arg + "; expected " + SUITE + " [--transfers=N] [--accounts=N]"
              + " [--flush-every=N] [--cut-interval-ms=N] [--rounds=N] [--formats=delta,iceberg,paimon] [--quick]");
        }
      }
      return new Settings(transfers, accounts, flushEvery, cutIntervalMs, rounds, formats);
    }
  }
}
