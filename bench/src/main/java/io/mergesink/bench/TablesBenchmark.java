package io.mergesink.bench;

import io.mergesink.core.storage.RequestCounts;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.CommitOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.data.Struct;

/**
 * bench/README.md, "Tables": what one task pays when a stream is spread over many tables (a whole
 * database in one connector) against the same stream into one table, in one run. The same Debezium
 * change events (upserts of random keys, 5% deletes of live ones) go through one ingest engine,
 * key {@code k} into table {@code k mod N}, each table its own one-partition topic as Debezium
 * creates them, with a flush every {@code --flush-every} events (as a commit interval would). For
 * each table count: events/s and its ratio to one table (per round), table commits per second, and
 * the settled heap the engine keeps once every change is in its table (every table idle), in all and
 * per table. Rounds rotate which table count goes first.
 *
 * <p>{@code java -Xmx4g -jar bench/target/mergesink-bench.jar tables [--tables=1,100,1000] [--commit-threads=1,4]
 * [--events=N] [--keys=N] [--flush-every=N] [--rounds=N] [--quick]}
 */
final class TablesBenchmark {
  static final String SUITE = "tables";
  private static final String TOPIC_PREFIX = "pg.public.t";
  private static final double DELETE_SHARE = 0.05;
  private static final long SEED = 29;

  private TablesBenchmark() {}

  public static void main(String[] args) throws IOException {
    Settings settings = Settings.parse(args);
    List<Change> stream = Change.stream(settings.events(), settings.keys(), new Random(SEED));
    System.err.printf("[bench] tables: %,d events over %,d keys into %s tables, %s commit threads%n", settings.events(),
        settings.keys(), Arrays.toString(settings.tables()), Arrays.toString(settings.commitThreads()));
    List<Case> cases = settings.cases();
    int counts = cases.size();
    Run[][] runs = new Run[counts][settings.rounds()];
    for (int round = -1; round < settings.rounds(); round++) {
      for (int turn = 0; turn < counts; turn++) {
        int which = Math.floorMod(round + turn, counts);
        Run run = land(stream, cases.get(which), settings.flushEvery());
        System.err.printf("[bench] tables: round %d, %s: %s%n", round, cases.get(which), run);
        if (round >= 0) {
          runs[which][round] = run;
        }
      }
    }
    System.out.printf("MergeSink tables, Java %s, max heap %,d MiB%n%n", System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() >> 20);
    System.out.println(report(settings, runs).toMarkdown());
  }

  /** A table count and the engine's {@code flush.commit.threads}. */
  private record Case(int tables, int commitThreads) {
    @Override
    public String toString() {
      return String.format("%,d table%s, %d commit thread%s", tables, tables == 1 ? "" : "s", commitThreads,
          commitThreads == 1 ? "" : "s");
    }
  }

  /**
   * One landing of the stream: how long it took (and how much of it in flushes, where the tables commit), its commits,
   * and the heap it kept.
   */
  private record Run(double seconds, double flushSeconds, long commits, long heldBytes) {
    @Override
    public String toString() {
      return String.format("%.1f s (%.1f s flushing), %,d commits, %,d KiB held", seconds, flushSeconds, commits, heldBytes >> 10);
    }
  }

  private static Run land(List<Change> stream, Case which, int flushEvery) throws IOException {
    Path dir = Files.createTempDirectory("mergesink-bench-tables-");
    try {
      List<KafkaRecord> records = routed(stream, which.tables());
      Landed landed = land(records, dir, which, flushEvery);
      // what the engine held with every table idle: the heap while it was open, less the heap once it is gone
      return new Run(landed.seconds(), landed.flushSeconds(), landed.commits(), landed.openHeap() - HeapProbe.settledUsedHeap());
    } finally {
      TempDirectories.deleteRecursively(dir);
    }
  }

  /** How long the landing took, its commits, and the settled heap once every change was in its table, the engine still open. */
  private record Landed(double seconds, double flushSeconds, long commits, long openHeap) {}

  /** Lands {@code records} through an engine of its own, which is unreachable once this returns. */
  private static Landed land(List<KafkaRecord> records, Path dir, Case which, int flushEvery) {
    AtomicLong commits = new AtomicLong();
    IngestMetrics metrics = new IngestMetrics() {
      @Override
      public void committed(long latencyMs, long rowsWritten, RequestCounts requests) {
        commits.incrementAndGet();
      }
    };
    IngestOptions options = IngestOptions.builder(dir.toString(), "bench").tableNameFormat("${topic}")
        .commitInterval(Duration.ofDays(1)).commitThreads(which.commitThreads()).build();
    try (IngestEngine engine = new IngestEngine(options, metrics)) {
      List<KafkaPartition> partitions = new ArrayList<>();
      for (int table = 0; table < which.tables(); table++) {
        partitions.add(new KafkaPartition(TOPIC_PREFIX + table, 0));
      }
      engine.open(partitions);
      engine.seeksApplied();
      long start = System.nanoTime();
      long flushing = 0;
      for (int i = 0; i < records.size(); i++) {
        engine.accept(records.get(i));
        if ((i + 1) % flushEvery == 0 || i == records.size() - 1) {
          long flushStart = System.nanoTime();
          EngineLanding.flush(engine);
          flushing += System.nanoTime() - flushStart;
        }
      }
      double seconds = Seconds.since(start);
      return new Landed(seconds, flushing / 1e9, commits.get(), HeapProbe.settledUsedHeap());
    }
  }

  /** The stream as Kafka records: key {@code k} in the topic of table {@code k mod tables}, offsets consecutive per topic. */
  private static List<KafkaRecord> routed(List<Change> stream, int tables) {
    long[] offsets = new long[tables];
    List<KafkaRecord> records = new ArrayList<>(stream.size());
    for (Change change : stream) {
      int table = (int) (change.id() % tables);
      KafkaPartition partition = new KafkaPartition(TOPIC_PREFIX + table, 0);
      long offset = offsets[table]++;
      records.add(new KafkaRecord(partition, offset, partition.topic(), offset, DebeziumEvents.KEY, DebeziumEvents.key(change.id()),
          DebeziumEvents.VALUE, change.value(), RecordHeaders.NONE));
    }
    return records;
  }

  private static ResultTable report(Settings settings, Run[][] runs) {
    ResultTable report = new ResultTable();
    int rounds = settings.rounds();
    String stream = String.format("%,d events over %,d keys, a flush every %,d", settings.events(), settings.keys(),
        settings.flushEvery());
    List<Case> cases = settings.cases();
    for (int which = 0; which < cases.size(); which++) {
      int tables = cases.get(which).tables();
      double[] rates = new double[rounds];
      double[] ratios = new double[rounds];
      double[] commitRates = new double[rounds];
      double[] flushCommitRates = new double[rounds];
      double[] heldMiB = new double[rounds];
      double[] perTableKiB = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        Run run = runs[which][round];
        rates[round] = settings.events() / run.seconds();
        ratios[round] = runs[0][round].seconds() / run.seconds();
        commitRates[round] = run.commits() / run.seconds();
        flushCommitRates[round] = run.commits() / run.flushSeconds();
        heldMiB[round] = run.heldBytes() / (1024.0 * 1024.0);
        perTableKiB[round] = run.heldBytes() / 1024.0 / tables;
      }
      Samples ratio = Samples.of(ratios);
      String label = cases.get(which) + ", " + stream;
      report.add(Result.info(label + " (events/s; ÷ " + cases.get(0) + " per round)", Samples.of(rates).describe("%,.0f", "events/s")
          + String.format("; %.2f (%.2f–%.2f, n=%d)", ratio.median(), ratio.min(), ratio.max(), ratio.count())));
      report.add(Result.info(label + " (table commits/s)", Samples.of(commitRates).describe("%,.1f", "commits/s")));
      report.add(Result.info(label + " (table commits per second of flushing)", Samples.of(flushCommitRates).describe("%,.1f",
          "commits/s")));
      report.add(Result.info(label + " (settled heap the engine keeps, all tables idle)",
          Samples.of(heldMiB).describe("%,.1f", "MiB") + "; per table " + Samples.of(perTableKiB).describe("%,.0f", "KiB")));
    }
    return report;
  }

  /** One change of the stream: the key and its Debezium event. */
  private record Change(long id, Struct value) {
    /** {@code events} changes of keys below {@code keys}: an insert of a key not live, else an update, or a delete of a live key. */
    static List<Change> stream(int events, int keys, Random random) {
      Map<Long, Integer> versions = new HashMap<>();
      LinkedHashSet<Long> live = new LinkedHashSet<>();
      List<Change> changes = new ArrayList<>(events);
      for (int i = 0; i < events; i++) {
        long id = random.nextInt(keys);
        int version = versions.merge(id, 1, Integer::sum);
        if (live.contains(id) && random.nextDouble() < DELETE_SHARE) {
          live.remove(id);
          changes.add(new Change(id, DebeziumEvents.delete(id, version)));
        } else {
          changes.add(new Change(id, DebeziumEvents.upsert(live.add(id) ? "c" : "u", id, version)));
        }
      }
      return changes;
    }
  }

  /**
   * The command line: {@code --tables} (the first is the reference), {@code --commit-threads} (each table count runs with
   * each; default the engine's default), {@code --events}, {@code --keys}, {@code --flush-every}, {@code --rounds},
   * {@code --quick}.
   */
  private record Settings(int[] tables, int[] commitThreads, int events, int keys, int flushEvery, int rounds) {
    /** Every table count with every thread count, the first of each first (the reference). */
    List<Case> cases() {
      List<Case> cases = new ArrayList<>();
      for (int count : tables) {
        for (int threads : commitThreads) {
          cases.add(new Case(count, threads));
        }
      }
      return cases;
    }

    static Settings parse(String[] args) {
      boolean quick = List.of(args).contains("--quick");
      int[] tables = quick ? new int[] {1, 100} : new int[] {1, 100, 1000};
      int events = quick ? 20_000 : 200_000;
      int keys = quick ? 10_000 : 100_000;
      int flushEvery = 20_000;
      int rounds = quick ? 1 : 3;
      int[] commitThreads = {CommitOptions.FLUSH_COMMIT_THREADS_DEFAULT};
      for (String arg : args) {
        if (arg.startsWith("--tables=")) {
          tables = Arrays.stream(arg.substring("--tables=".length()).split(",")).mapToInt(Integer::parseInt).toArray();
        } else if (arg.startsWith("--commit-threads=")) {
          commitThreads = Arrays.stream(arg.substring("--commit-threads=".length()).split(",")).mapToInt(Integer::parseInt).toArray();
        } else if (arg.startsWith("--events=")) {
          events = Integer.parseInt(arg.substring("--events=".length()));
        } else if (arg.startsWith("--keys=")) {
          keys = Integer.parseInt(arg.substring("--keys=".length()));
        } else if (arg.startsWith("--flush-every=")) {
          flushEvery = Integer.parseInt(arg.substring("--flush-every=".length()));
        } else if (arg.startsWith("--rounds=")) {
          rounds = Integer.parseInt(arg.substring("--rounds=".length()));
        } else if (!arg.equals(SUITE) && !arg.equals("--quick")) {
          throw new IllegalArgumentException("unknown argument " + arg + "; expected " + SUITE
              + " [--tables=1,100,1000] [--commit-threads=1,4] [--events=N] [--keys=N] [--flush-every=N] [--rounds=N] [--quick]");
        }
      }
      return new Settings(tables, commitThreads, events, keys, flushEvery, rounds);
    }
  }
}
