package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.cut.CutCandidates;
import io.mergesink.ingest.cut.CutPublisher;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.TransactionBoundaries;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.PaimonTables;
import io.mergesink.ingest.testing.TransferRecords;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Consistent cuts across tables (docs/transactions.md, "Consistent cuts") on real tables: a bank whose
 * transactions move money between accounts of two tables and record the transfer in a third, the
 * tables written by two tasks (one holding {@code checking}, {@code transfers} and the transaction
 * topic, the other {@code savings}), each reading its partitions and the transaction topic at its own
 * pace and flushing at random points. Read with the format's own reader at every published cut (Delta
 * Kernel; Iceberg's generic reader; Paimon's {@code ReadBuilder} with {@code scan.snapshot-id}, deletion
 * vectors applied, so a cut naming a snapshot whose rows wait in level 0 would show), every table holds exactly the source's state after the cut's transaction: the total over the accounts
 * never changes, and every transfer has both its account updates.
 */
class ConsistentCutsTest {
  private static final int ACCOUNTS = 5;
  private static final int TRANSFERS = 200;
  private static final long CUT_INTERVAL_MS = 100;
  /** Source time between transactions. */
  private static final long STEP_MS = 7;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = TableFormatName.class, names = {"DELTA", "ICEBERG", "PAIMON"})
  void everyTableReadAtEveryPublishedCutHoldsTheSourceAfterTheCutsTransaction(TableFormatName format) {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    TransferRecords bank = new TransferRecords(ACCOUNTS);
    for (int transfer = 1; transfer <= TRANSFERS; transfer++) {
      bank.transfer(random, transfer * STEP_MS);
    }
    bank.transfer(random, (TRANSFERS + 1) * STEP_MS + CUT_INTERVAL_MS); // its END makes the last one of the stream a candidate

    Task publisher = new Task(format, List.of("checking", TransferRecords.TRANSFERS), true);
    Task other = new Task(format, List.of("savings"), false);
    List<Task> tasks = List.of(publisher, other);
    while (tasks.stream().anyMatch(task -> !task.done(bank))) {
      Task task = tasks.get(random.nextInt(tasks.size()));
      int action = random.nextInt(10);
      if (action < 6) {
        task.deliver(bank, random);
      } else if (action < 9) {
        task.readEnds(bank, 1 + random.nextInt(4));
      } else {
        task.flush();
      }
    }
    for (int round = 0; round < 3; round++) {
      other.flush();
      publisher.flush(); // the cuts the other task's commits complete are published by the publisher's next flush
    }
    publisher.engine.close();
    other.engine.close();

    Map<Long, Map<String, Long>> cuts = readCuts(format);
    assertThat(cuts.size()).as("cuts published, seed %d", seed).isGreaterThanOrEqualTo(3);
    assertThat(cuts.keySet().stream().mapToLong(Long::longValue).max().orElseThrow())
        .as("the newest cut is the last transaction before the final one, seed %d", seed)
        .isEqualTo(bank.ends().get(bank.ends().size() - 2).offset());
    long total = 2L * ACCOUNTS * TransferRecords.OPENING_BALANCE;
    cuts.forEach((cut, versions) -> {
      assertThat(versions.keySet()).containsExactlyInAnyOrder("checking", "savings", TransferRecords.TRANSFERS);
      Map<String, Map<Long, List<Object>>> tables = new HashMap<>();
      versions.forEach((table, version) -> tables.put(table, rows(format, table, version)));
      String at = "cut " + cut + " (versions " + versions + "), seed " + seed;

      long sum = 0;
      long moves = 0;
      for (String table : TransferRecords.ACCOUNT_TABLES) {
        for (List<Object> account : tables.get(table).values()) {
          sum += (Long) account.get(1);
          moves += (Long) account.get(2);
        }
      }
      assertThat(sum).as("the total over the accounts at %s", at).isEqualTo(total);
      Map<Long, List<Object>> transfers = tables.get(TransferRecords.TRANSFERS);
      assertThat(moves).as("account updates, two per transfer, at %s", at).isEqualTo(2L * transfers.size());
      for (List<Object> transfer : transfers.values()) {
        assertThat((Long) tables.get((String) transfer.get(1)).get((Long) transfer.get(2)).get(2))
            .as("the moves of the account transfer %s takes from, at %s", transfer, at).isGreaterThanOrEqualTo((Long) transfer.get(3));
        assertThat((Long) tables.get((String) transfer.get(4)).get((Long) transfer.get(5)).get(2))
            .as("the moves of the account transfer %s gives to, at %s", transfer, at).isGreaterThanOrEqualTo((Long) transfer.get(6));
      }
      Map<String, Map<Long, List<Object>>> source = bank.stateAt(cut);
      for (String table : versions.keySet()) {
        assertThat(tables.get(table)).as("table %s at %s", table, at).isEqualTo(source.getOrDefault(table, Map.of()));
      }
    });
  }

  @ParameterizedTest
  @EnumSource(value = TableFormatName.class, names = {"DELTA"})
  void thePublishedCutLagIsHowFarTheNewestCutIsBehindTheNewestCutATableHolds(TableFormatName format) {
    Random random = new Random(7);
    TransferRecords bank = new TransferRecords(ACCOUNTS);
    int transfers = 60;
    for (int transfer = 1; transfer <= transfers; transfer++) {
      bank.transfer(random, transfer * STEP_MS);
    }
    bank.transfer(random, (transfers + 1) * STEP_MS + CUT_INTERVAL_MS);
    Task publisher = new Task(format, List.of("checking", TransferRecords.TRANSFERS), true);
    Task other = new Task(format, List.of("savings"), false);
    long middle = bank.ends().get(bank.ends().size() / 2).offset();
    long last = bank.ends().get(bank.ends().size() - 1).offset();

    for (Task task : List.of(other, publisher, publisher)) {
      task.deliverThrough(bank, middle);
      task.flush();
    }
    assertThat(readCuts(format)).as("cuts published while both tasks commit the same transactions").isNotEmpty();
    assertThat(publisher.engine.publishedCutLagMillis()).isZero();

    publisher.deliverThrough(bank, last);
    publisher.flush();
    publisher.flush();
    long behind = publisher.engine.publishedCutLagMillis();
    assertThat(behind).as("the publisher's tables hold newer cuts than savings, which the other task holds back").isPositive();

    other.deliverThrough(bank, last);
    other.flush();
    publisher.flush();
    assertThat(publisher.engine.publishedCutLagMillis()).as("once savings holds them too (it was %d ms behind)", behind).isZero();
    publisher.engine.close();
    other.engine.close();
  }

  /** The cut table's rows: cut offset → table → version. */
  private Map<Long, Map<String, Long>> readCuts(TableFormatName format) {
    Map<Long, Map<String, Long>> cuts = new TreeMap<>();
    List<Row> rows = switch (format) {
      case DELTA -> KernelTables.readRows(dir.resolve(CutPublisher.TABLE).toString());
      case ICEBERG -> IcebergTables.readRows(IcebergTables.load(dir.toString(), "default", CutPublisher.TABLE));
      case PAIMON -> PaimonTables.readRows(PaimonTables.load(dir.toString(), "default", CutPublisher.TABLE));
    };
    for (Row row : rows) {
      cuts.computeIfAbsent((Long) row.get(0), cut -> new LinkedHashMap<>()).put(row.get(1).toString(), (Long) row.get(4));
    }
    return cuts;
  }

  /** The rows of {@code table} at {@code version} (Delta's version, Iceberg's or Paimon's snapshot id), by id. */
  private Map<Long, List<Object>> rows(TableFormatName format, String table, long version) {
    List<Row> rows = switch (format) {
      case DELTA -> KernelTables.readRows(dir.resolve(table).toString(), version);
      case ICEBERG -> IcebergTables.readRows(IcebergTables.load(dir.toString(), "default", table), version);
      case PAIMON -> PaimonTables.readRows(PaimonTables.at(PaimonTables.load(dir.toString(), "default", table), version));
    };
    Map<Long, List<Object>> byId = new HashMap<>();
    for (Row row : rows) {
      List<Object> values = new ArrayList<>(Arrays.stream(row.toArray()).map(value -> value instanceof CharSequence text
          ? text.toString() : value).toList());
      byId.put((Long) values.get(0), values);
    }
    return byId;
  }

  /** A task: its engine, the ends its consumer of the transaction topic read so far, how far it read each partition. */
  private final class Task implements TransactionEnds {
    final IngestEngine engine;
    final CutCandidates candidates = new CutCandidates(CUT_INTERVAL_MS);
    final Map<String, TransactionEvent> ends = new ConcurrentHashMap<>();
    final List<String> tables;
    final Map<String, Integer> delivered = new HashMap<>();
    int endsRead;

    Task(TableFormatName format, List<String> tables, boolean holdsTransactionTopic) {
      this.tables = tables;
      IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableFormat(format).tableNameFormat("${source.table}")
          .commitInterval(Duration.ofHours(1))
          .transactions(new TransactionOptions(TransactionBoundaries.ON, TransferRecords.TRANSACTION_TOPIC, Map.of(),
              Duration.ofMillis(CUT_INTERVAL_MS)))
          .build();
      engine = new IngestEngine(options, new IngestMetrics() {}, this, candidates);
      List<KafkaPartition> partitions = new ArrayList<>(tables.stream().map(TransferRecords::partition).toList());
      if (holdsTransactionTopic) {
        partitions.add(TransferRecords.transactionTopic());
      }
      engine.open(partitions);
      engine.seeksApplied();
      tables.forEach(table -> delivered.put(table, 0));
    }

    @Override
    public Optional<TransactionEvent> end(String id) {
      return Optional.ofNullable(ends.get(id));
    }

    boolean done(TransferRecords bank) {
      return endsRead == bank.ends().size()
          && tables.stream().allMatch(table -> delivered.get(table) == bank.records(table).size());
    }

    /** Delivers the next few records of one of its partitions. */
    void deliver(TransferRecords bank, Random random) {
      String table = tables.get(random.nextInt(tables.size()));
      List<KafkaRecord> records = bank.records(table);
      int from = delivered.get(table);
      int to = Math.min(records.size(), from + 1 + random.nextInt(3));
      for (int next = from; next < to; next++) {
        engine.accept(records.get(next));
      }
      delivered.put(table, to);
    }

    /** Delivers its tables' records and reads the ends, through the transaction whose {@code END} is at {@code endOffset}. */
    void deliverThrough(TransferRecords bank, long endOffset) {
      for (String table : tables) {
        List<KafkaRecord> records = bank.records(table);
        int to = bank.changesUpTo(table, endOffset);
        for (int next = delivered.get(table); next < to; next++) {
          engine.accept(records.get(next));
        }
        delivered.put(table, to);
      }
      int ends = (int) bank.ends().stream().filter(end -> end.offset() <= endOffset).count();
      readEnds(bank, ends - endsRead);
    }

    /** Its consumer of the transaction topic reads the next {@code count} ends. */
    void readEnds(TransferRecords bank, int count) {
      for (int next = endsRead; next < Math.min(bank.ends().size(), endsRead + count); next++) {
        TransferRecords.End end = bank.ends().get(next);
        ends.put(end.event().id(), end.event());
        candidates.ended(TransferRecords.transactionTopic(), end.offset(), end.event());
      }
      endsRead = Math.min(bank.ends().size(), endsRead + count);
    }

    void flush() {
      assertThat(engine.flush().failure()).isEmpty();
    }
  }
}
