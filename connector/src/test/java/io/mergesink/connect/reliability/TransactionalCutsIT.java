package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.testing.AbruptWorkers;
import io.mergesink.core.data.Row;
import io.mergesink.ingest.cut.CutPublisher;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.SinkTables;
import io.mergesink.ingest.testing.TransactionRecords;
import io.mergesink.ingest.testing.TransferRecords;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transactional workload (docs/transactions.md): a bank whose source transactions move money
 * between accounts of two tables ({@code checking}, {@code savings}) and record the transfer in a
 * third, in Debezium's events with transaction metadata, its {@code BEGIN} and {@code END} events on
 * the transaction topic, through a Connect cluster with whole transactions and consistent cuts on
 * ({@code cut.interval.ms}), in chunks, each but the last followed by a fault: the connector starts
 * with 2 tasks on 2 workers; a worker leaves without waiting for its task (killed mid-batch, possibly
 * mid-commit); a worker joins and {@code tasks.max} goes to 3; then to 1. After each chunk the cut of
 * the newest interval it closed must be published. Then, read with the cell's format's own reader
 * ({@link Cell#tables()}):
 *
 * <ul>
 *   <li>every version of every table holds the source's table after some transaction: no commit holds
 *       part of a transaction;
 *   <li>at every cut of the cut table {@value CutPublisher#TABLE}, each table read at the version the
 *       cut names holds the source's table after the cut's transaction: the total over the accounts is
 *       the opening one, every transfer comes with both its account updates;
 *   <li>the newest cut is the last transaction a later one closes the interval of, and the tables
 *       hold it.
 * </ul>
 *
 * <p>Runs in every keyed upsert cell of every format, on local disk and S3; in CI in the Delta cell
 * with deletion vectors (Paimon's and Iceberg's cuts are read in CI by {@code ConsistentCutsTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransactionalCutsIT {
  private static final int ACCOUNTS = 4;
  private static final int TRANSFERS = 90;
  /** Source time between consistent cuts: a cut every 10 transfers. */
  private static final long CUT_INTERVAL_MS = 100;
  private static final long STEP_MS = 10;
  private static final Duration CATCH_UP = Duration.ofMinutes(3);
  private static final int WORKERS = 2;
  /** The stream comes in chunks, a fault after each but the last. */
  private static final int CHUNKS = 5;

  @TempDir Path tables;
  private LocalConnect connect;

  static Stream<Cell> cells() {
    return Matrix.cellsInAnyStore(List.of(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.OFF)),
        TransactionalCutsIT::keyedUpserts);
  }

  /** Keyed tables of plain upserts, on local disk or S3: the workload's model is the source's rows. */
  private static boolean keyedUpserts(Cell cell) {
    return !cell.isAppend() && cell.isPlain() && !cell.isOnAzure();
  }

  @AfterAll
  void stopCluster() {
    if (connect != null) {
      connect.close();
    }
  }

  /** The cluster of workers that do not wait for their tasks, shared by the cells. */
  private LocalConnect cluster() {
    if (connect == null) {
      connect = LocalConnect.start(WORKERS, AbruptWorkers.WORKER_PROPS);
    }
    return connect;
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("cells")
  void everyVersionHoldsWholeTransactionsAndEveryCutAgreesAcrossTables(Cell cell) {
    long seed = Workloads.seed("transactional cuts [" + cell + "]");
    Random random = new Random(seed);
    TransferRecords bank = new TransferRecords(ACCOUNTS);
    for (int transfer = 1; transfer <= TRANSFERS; transfer++) {
      bank.transfer(random, transfer * STEP_MS);
    }
    bank.transfer(random, (TRANSFERS + 1) * STEP_MS + CUT_INTERVAL_MS); // its END makes the one before the last cut
    String name = "cuts-" + cell.slug();
    LocalConnect connect = cluster();
    Map<String, String> config = sinkConfig(cell, name, connect, bank.partitions().keySet());
    String root = config.get("table.root");
    bank.partitions().keySet().forEach(table -> connect.createTopic(topic(name, table), 1));
    connect.createTopic(name + ".transaction", 1);
    Producer producer = new Producer(connect, bank, name);

    SinkTables reader = cell.tables();
    String cutTable = reader.location(root, CutPublisher.TABLE);
    // the stream in chunks; after each, a fault, then the cut of the newest interval the chunk closed
    for (int chunk = 1; chunk <= CHUNKS; chunk++) {
      producer.upTo(chunk * bank.ends().size() / CHUNKS);
      switch (chunk) {
        case 1 -> connect.startConnector(name, config, 2);
        case 2 -> {
          connect.cluster().removeWorker(); // its task is abandoned mid-batch, maybe mid-commit
          connect.awaitRunning(name, 2);
        }
        case 3 -> {
          connect.cluster().addWorker();
          connect.startConnector(name, withTasks(config, 3), 3);
        }
        case 4 -> connect.startConnector(name, withTasks(config, 1), 1);
        default -> {
          // the last chunk lands without a fault
        }
      }
      long candidate = newestCandidate(bank, producer.produced());
      Await.until("a cut at or after transaction topic offset " + candidate + " in " + cutTable + " (seed " + seed + ")", CATCH_UP,
          () -> reader.exists(cutTable) ? cuts(reader, cutTable) : Map.<Long, Map<String, Long>>of(),
          cuts -> cuts.keySet().stream().anyMatch(cut -> cut >= candidate));
    }
    long newestCut = bank.ends().get(bank.ends().size() - 2).offset();
    connect.deleteConnector(name);

    String at = "seed " + seed + " [" + cell + "]";
    Map<String, Set<Map<Long, List<Object>>>> whole = wholeStates(bank);
    long versionsRead = 0;
    for (String table : bank.partitions().keySet()) {
      String location = reader.location(root, table);
      for (long version : reader.versions(location)) {
        assertThat(whole.get(table)).as("table %s at version %d holds whole transactions, %s", table, version, at)
            .contains(rows(reader, location, version));
        versionsRead++;
      }
      assertThat(rows(reader, location)).as("table %s holds the newest cut's transaction, %s", table, at)
          .isEqualTo(bank.stateAt(newestCut).get(table));
    }

    Map<Long, Map<String, Long>> cuts = cuts(reader, cutTable);
    assertThat(cuts.keySet().stream().mapToLong(Long::longValue).max()).as("the newest cut, %s", at).hasValue(newestCut);
    long total = 2L * ACCOUNTS * TransferRecords.OPENING_BALANCE;
    cuts.forEach((cut, versions) -> {
      String atCut = "cut " + cut + " (versions " + versions + "), " + at;
      assertThat(versions.keySet()).as(atCut).containsExactlyInAnyOrderElementsOf(bank.partitions().keySet());
      Map<String, Map<Long, List<Object>>> state = new HashMap<>();
      versions.forEach((table, version) -> state.put(table, rows(reader, reader.location(root, table), version)));
      long sum = 0;
      long moves = 0;
      for (String table : TransferRecords.ACCOUNT_TABLES) {
        for (List<Object> account : state.get(table).values()) {
          sum += (Long) account.get(1);
          moves += (Long) account.get(2);
        }
      }
      assertThat(sum).as("the total over the accounts at %s", atCut).isEqualTo(total);
      assertThat(moves).as("account updates, two per transfer, at %s", atCut).isEqualTo(2L * state.get(TransferRecords.TRANSFERS).size());
      state.forEach((table, rows) -> assertThat(rows).as("table %s at %s", table, atCut)
          .isEqualTo(bank.stateAt(cut).getOrDefault(table, Map.of())));
    });
    System.out.printf("RELIABILITY scenario=transactional-cuts cell=%s cuts=%d versions=%d transactions=%d%n", cell, cuts.size(),
        versionsRead, bank.ends().size());
  }

  private Map<String, String> sinkConfig(Cell cell, String name, LocalConnect connect, Set<String> sourceTables) {
    Map<String, String> config = new HashMap<>(Workloads.config(cell, tables.resolve(name), 10_000));
    List<String> topics = new ArrayList<>(sourceTables.stream().map(table -> topic(name, table)).toList());
    topics.add(name + ".transaction");
    config.put("name", name);
    config.put("tasks.max", "2");
    config.put("topics", String.join(",", topics));
    config.put("table.name.format", "${source.table}");
    config.put("commit.interval.ms", "300");
    config.put("transaction.topic", name + ".transaction");
    config.put("transaction.kafka.bootstrap.servers", connect.bootstrapServers());
    config.put("cut.interval.ms", Long.toString(CUT_INTERVAL_MS));
    return config;
  }

  private static Map<String, String> withTasks(Map<String, String> config, int tasks) {
    Map<String, String> changed = new HashMap<>(config);
    changed.put("tasks.max", Integer.toString(tasks));
    return changed;
  }

  private static String topic(String name, String table) {
    return name + ".public." + table;
  }

  /** The offset of the newest {@code END} of the first {@code transactions} that a later one's closes the interval of: a cut. */
  private static long newestCandidate(TransferRecords bank, int transactions) {
    List<TransferRecords.End> ends = bank.ends();
    for (int i = transactions - 2; i >= 0; i--) {
      if (ends.get(i).event().timestampMs() / CUT_INTERVAL_MS != ends.get(i + 1).event().timestampMs() / CUT_INTERVAL_MS) {
        return ends.get(i).offset();
      }
    }
    throw new IllegalArgumentException("no interval closed in the first " + transactions + " transactions");
  }

  /** The table's rows after each transaction, whole: what any of its versions may hold (empty before the first). */
  private static Map<String, Set<Map<Long, List<Object>>>> wholeStates(TransferRecords bank) {
    Map<String, Set<Map<Long, List<Object>>>> states = new HashMap<>();
    for (String table : bank.partitions().keySet()) {
      states.computeIfAbsent(table, t -> new HashSet<>()).add(Map.of());
      for (TransferRecords.End end : bank.ends()) {
        states.get(table).add(bank.stateAt(end.offset()).getOrDefault(table, Map.of()));
      }
    }
    return states;
  }

  /** The cut table's rows: cut offset → table → version. */
  private static Map<Long, Map<String, Long>> cuts(SinkTables reader, String cutTable) {
    Map<Long, Map<String, Long>> cuts = new TreeMap<>();
    for (Row row : reader.readRows(cutTable)) {
      cuts.computeIfAbsent((Long) row.get(0), cut -> new LinkedHashMap<>()).put(row.get(1).toString(), (Long) row.get(4));
    }
    return cuts;
  }

  private static Map<Long, List<Object>> rows(SinkTables reader, String table) {
    return byId(reader.readRows(table));
  }

  private static Map<Long, List<Object>> rows(SinkTables reader, String table, long version) {
    return byId(reader.readRows(table, version));
  }

  private static Map<Long, List<Object>> byId(List<Row> rows) {
    Map<Long, List<Object>> byId = new HashMap<>();
    for (Row row : rows) {
      List<Object> values = new ArrayList<>();
      for (Object value : row.toArray()) {
        values.add(value instanceof CharSequence text ? text.toString() : value);
      }
      byId.put((Long) values.get(0), values);
    }
    return byId;
  }

  /** Produces the bank's transactions in source order: each one's changes, then its {@code BEGIN} and {@code END}. */
  private static final class Producer {
    private final LocalConnect connect;
    private final TransferRecords bank;
    private final String name;
    private final Map<String, Integer> produced = new HashMap<>();
    private int transactions;

    Producer(LocalConnect connect, TransferRecords bank, String name) {
      this.connect = connect;
      this.bank = bank;
      this.name = name;
      bank.partitions().keySet().forEach(table -> produced.put(table, 0));
    }

    /** How many transactions were produced. */
    int produced() {
      return transactions;
    }

    /** Produces the transactions up to the {@code count}-th. */
    void upTo(int count) {
      for (; transactions < count; transactions++) {
        long end = bank.ends().get(transactions).offset();
        for (String table : bank.partitions().keySet()) {
          int upTo = bank.changesUpTo(table, end);
          for (KafkaRecord record : bank.records(table).subList(produced.get(table), upTo)) {
            connect.produce(topic(name, table), 0, record.keySchema(), record.key(), record.valueSchema(), record.value());
          }
          produced.put(table, upTo);
        }
        for (int event = 2 * transactions; event <= 2 * transactions + 1; event++) {
          connect.produce(name + ".transaction", 0, Schema.OPTIONAL_STRING_SCHEMA, null, TransactionRecords.END,
              bank.transactionEvents().get(event));
        }
      }
    }
  }
}
