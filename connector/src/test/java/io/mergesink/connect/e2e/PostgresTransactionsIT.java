package io.mergesink.connect.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.testing.AbruptWorkers;
import io.mergesink.connect.WholeTopicAssignor;
import io.mergesink.core.data.Row;
import io.mergesink.ingest.testing.SinkTables;
import io.mergesink.localconnect.Await;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole source transactions and consistent cuts end to end (docs/transactions.md): a bank in PostgreSQL
 * ({@link BankWorkload}: each transaction moves money between two accounts of {@code accounts_a} and
 * {@code accounts_b} and inserts its row into {@code transfers}), Debezium with
 * {@code provide.transaction.metadata=true}, the three data topics with {@value #PARTITIONS} partitions
 * each and the transaction topic in the sink's topics, a sink of {@value KilledWorkerRun#TASKS} tasks on
 * {@value KilledWorkerRun#WORKERS} Connect workers with {@code cut.interval.ms}, each task holding whole
 * topics ({@link WholeTopicAssignor}), so the tables are written by different tasks and each from all
 * its partitions in one task, and {@code upsert.order.by=source.lsn}: Debezium's task, moved by the
 * rebalance, sends again what followed its last recorded position. While the bank streams, a
 * worker running a sink task is stopped as if killed ({@link AbruptWorkers}) and its tasks move to the
 * other; a worker joins again and the tasks are rebalanced over both.
 *
 * <p>While the stream runs and at its end, {@link CutChecker} reads every version of each table and every
 * published cut with the format's independent reader: no version holds part of a transfer's changes to
 * its table, and each cut is exactly the bank after its transaction. A cut is published after the kill,
 * and at the end each table equals PostgreSQL. The {@code soak} profile repeats the kill and the
 * rebalance {@value #SOAK_CYCLES} times, and adds Iceberg tables to Delta's.
 */
class PostgresTransactionsIT {
  private static final int PARTITIONS = 3;
  private static final List<String> TABLES = List.of(BankWorkload.ACCOUNTS_A, BankWorkload.ACCOUNTS_B, BankWorkload.TRANSFERS);
  /**
   * Well above the end-to-end sink's {@code commit.interval.ms} and an Iceberg commit with its compaction on
   * a busy machine (seconds), so every task commits at every cut: a table that a slower task commits past a
   * cut has no version there, and the cut is not published.
   */
  private static final String CUT_INTERVAL_MS = "3000";
  /** Between the bank's transactions: about a hundred a second. */
  private static final long TRANSACTION_DELAY_MS = 10;
  private static final int SOAK_CYCLES = 3;

  @TempDir Path tables;

  /** Delta tables in CI, Delta and Iceberg under the {@code soak} profile (ConsistentCutsTest reads every format's cuts in CI). */
  static List<SinkTables> formats() {
    return Integer.getInteger("soak.steps", 0) > 0 ? List.of(SinkTables.DELTA, SinkTables.ICEBERG) : List.of(SinkTables.DELTA);
  }

  @ParameterizedTest
  @MethodSource("formats")
  void everyCutIsTheSourceAfterItsTransactionAndNoCommitHoldsPartOfATransaction(SinkTables format) {
    long seed = System.nanoTime();
    int cycles = Integer.getInteger("soak.steps", 0) > 0 ? SOAK_CYCLES : 1;
    try (EndToEnd e2e = KilledWorkerRun.start(tables)) {
      BankWorkload bank = new BankWorkload(e2e.postgres(), seed);
      bank.createTablesAndOpenAccounts();
      TABLES.forEach(table -> e2e.connect().createTopic(EndToEnd.topic(table), PARTITIONS));
      e2e.connect().createTopic(EndToEnd.TRANSACTION_TOPIC, 1);
      e2e.startSourceAndAwaitSnapshot(Map.of(BankWorkload.ACCOUNTS_A, (long) BankWorkload.ACCOUNTS_PER_TABLE,
          BankWorkload.ACCOUNTS_B, (long) BankWorkload.ACCOUNTS_PER_TABLE), Map.of("provide.transaction.metadata", "true"));
      e2e.startSink(sinkOptions(format, e2e));
      CutChecker checker = new CutChecker(format, bank, e2e::tablePath, tables.toString());
      String run = format + ", seed " + seed;

      List<Long> cutsAfterKills = new ArrayList<>();
      try (Stream stream = new Stream(bank)) {
        long newest = awaitCutAfter(checker, stream, -1, run);
        for (int cycle = 0; cycle < cycles; cycle++) {
          e2e.killSinkWorker();
          e2e.connect().awaitRunning(EndToEnd.SINK, KilledWorkerRun.TASKS);
          newest = awaitCutAfter(checker, stream, newest, run);
          cutsAfterKills.add(newest);
          e2e.connect().cluster().addWorker();
          e2e.connect().awaitRunning(EndToEnd.SINK, KilledWorkerRun.TASKS);
          newest = awaitCutAfter(checker, stream, newest, run);
        }
        stream.heartbeatsOnly();
        int transfers = bank.transferCount();
        Await.until("a cut with all " + transfers + " transfers (" + run + ")", EndToEnd.CATCH_UP, () -> {
          checker.check();
          stream.rethrow();
          return checker.transfersAtNewestCut();
        }, at -> at == transfers || !checker.problems().isEmpty());
      }

      NavigableMap<Long, Map<String, Long>> cuts = checker.check();
      SoftAssertions.assertSoftly(softly -> {
        softly.assertThat(checker.problems()).as("versions and cuts that break the bank's invariants (%s)", run).isEmpty();
        softly.assertThat(cutsAfterKills).as("cuts published after each kill (%s)", run).hasSize(cycles);
        for (String table : TABLES) {
          PostgresTable expected = PostgresTable.read(e2e.postgres(), table);
          softly.assertThat(rows(format, e2e.tablePath(table), expected.schema().fieldNames()))
              .as("%s vs PostgreSQL (%s)", table, run).containsExactlyInAnyOrderElementsOf(rows(expected.schema().fieldNames(),
                  expected.schema().fieldNames(), expected.rows()));
        }
        softly.assertThat(e2e.deadLetters()).as("records in the dead letter queue").isZero();
      });
      System.out.printf("%s: %d transfers, %d cuts, versions checked %s%n", run, bank.transferCount(), cuts.size(),
          checker.versionsChecked());
      assertThat(cuts).isNotEmpty();
    }
  }

  /** The rows of the table at {@code path}, only {@code columns} (the sink adds {@code __source_lsn}). */
  private static List<List<Object>> rows(SinkTables format, String path, List<String> columns) {
    return rows(format.schema(path).fieldNames(), columns, format.readRows(path));
  }

  /** {@code rows} of a schema of {@code fields}, only {@code columns}, numbers as longs and text as strings. */
  private static List<List<Object>> rows(List<String> fields, List<String> columns, List<Row> rows) {
    List<List<Object>> projected = new ArrayList<>();
    for (Row row : rows) {
      List<Object> values = new ArrayList<>();
      for (String column : columns) {
        Object value = row.get(fields.indexOf(column));
        values.add(value instanceof Number number ? (Object) number.longValue() : value == null ? null : value.toString());
      }
      projected.add(values);
    }
    return projected;
  }

  private Map<String, String> sinkOptions(SinkTables format, EndToEnd e2e) {
    Map<String, String> options = new HashMap<>();
    options.put("table.format", format.name().toLowerCase(Locale.ROOT));
    options.put("tasks.max", Integer.toString(KilledWorkerRun.TASKS));
    options.put("topics.regex", String.join("|", TABLES.stream().map(EndToEnd::topic).map(topic -> topic.replace(".", "\\."))
        .toList()) + "|" + EndToEnd.TRANSACTION_TOPIC.replace(".", "\\."));
    options.put("transaction.kafka.bootstrap.servers", e2e.connect().bootstrapServers());
    options.put("cut.interval.ms", CUT_INTERVAL_MS);
    // Debezium's task, moved by the rebalance, sends again what followed its last recorded position: older changes are skipped
    options.put("upsert.order.by", "source.lsn");
    // each task holds whole topics: the tables' partitions split over tasks never reach a cut (docs/transactions.md)
    options.put("consumer.override.partition.assignment.strategy", WholeTopicAssignor.class.getName());
    return options;
  }

  /** Checks versions and cuts until a cut after offset {@code after} is published; returns the newest cut's offset. */
  private static long awaitCutAfter(CutChecker checker, Stream stream, long after, String run) {
    NavigableMap<Long, Map<String, Long>> cuts = Await.until("a cut after transaction topic offset " + after + " (" + run + ")",
        EndToEnd.CATCH_UP, () -> {
          stream.rethrow();
          return checker.check();
        }, checked -> !checked.isEmpty() && checked.lastKey() > after || !checker.problems().isEmpty());
    assertThat(checker.problems()).as("versions and cuts that break the bank's invariants (%s)", run).isEmpty();
    return cuts.lastKey();
  }

  /**
   * The bank's transactions on a thread of their own, one every {@value #TRANSACTION_DELAY_MS} ms:
   * transfers, then heartbeats only, which move the source's time on so the last transfers become a cut.
   */
  private static final class Stream implements AutoCloseable {
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final BankWorkload bank;
    private volatile boolean transfers = true;

    Stream(BankWorkload bank) {
      this.bank = bank;
      thread.scheduleWithFixedDelay(this::next, 0, TRANSACTION_DELAY_MS, TimeUnit.MILLISECONDS);
    }

    /** Switches to heartbeats, on the bank's thread: when it returns, no transfer is under way. */
    void heartbeatsOnly() {
      try {
        thread.submit(() -> transfers = false).get(1, TimeUnit.MINUTES);
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("cannot stop the transfers: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while stopping the transfers", e);
      }
    }

    /** Throws what a transaction of the bank threw, if one did. */
    void rethrow() {
      if (failure.get() != null) {
        throw failure.get();
      }
    }

    private void next() {
      try {
        if (transfers) {
          bank.transfer();
        } else {
          bank.heartbeat();
        }
      } catch (RuntimeException e) {
        failure.compareAndSet(null, e);
        throw e;
      }
    }

    @Override
    public void close() {
      thread.shutdownNow();
      try {
        if (!thread.awaitTermination(1, TimeUnit.MINUTES)) {
          throw new IllegalStateException("the bank's transactions did not stop");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      bank.close();
    }
  }
}
