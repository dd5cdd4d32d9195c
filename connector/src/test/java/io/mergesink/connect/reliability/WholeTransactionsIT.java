package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.TransactionRecords;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole source transactions through a real Connect cluster: a bank's transfers (each moves money
 * between two accounts and records the transfer) in Debezium's events with transaction metadata,
 * and the {@code END} events on the transaction topic, which the task reads with its own consumer
 * ({@code transaction.kafka.bootstrap.servers}). Every version of the accounts table holds the same
 * total; the last transaction, which no later one follows, lands by its {@code END} alone.
 *
 * <p>Runs with the whole matrix ({@code -Dreliability.cells=all}, the {@code soak} profile): it reads
 * every version of a table with Delta Kernel, a minute or two, too long for every build.
 */
class WholeTransactionsIT {
  private static final String CONNECTOR = "mergesink";
  private static final int ACCOUNTS = 10;
  private static final long OPENING_BALANCE = 1_000;
  private static final int TRANSFERS = 100;
  private static final Duration CATCH_UP = Duration.ofMinutes(2);

  @TempDir Path tables;

  @Test
  void everyVersionOfATableHoldsWholeTransactionsAndTheLastOneLandsByItsEnd() {
    assumeTrue("all".equals(System.getProperty(Matrix.CELLS_PROPERTY)), "runs with -D" + Matrix.CELLS_PROPERTY + "=all (soak)");
    long seed = System.nanoTime();
    Random random = new Random(seed);
    long[] balances = new long[ACCOUNTS];
    TransactionRecords bank = new TransactionRecords(0);
    try (LocalConnect connect = LocalConnect.start(1)) {
      connect.createTopic(TransactionRecords.TOPIC, 1);
      connect.createTopic(TransactionRecords.TRANSACTION_TOPIC, 1);
      bank.begin("opening");
      for (int account = 0; account < ACCOUNTS; account++) {
        balances[account] = OPENING_BALANCE;
        produce(connect, bank.change("accounts", account, OPENING_BALANCE));
      }
      produceEnd(connect, bank);
      connect.startConnector(CONNECTOR, sinkConfig(connect), 1);

      long lastOffset = 0;
      for (int transfer = 1; transfer <= TRANSFERS; transfer++) {
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        long amount = 1 + random.nextInt(50);
        balances[from] -= amount;
        balances[to] += amount;
        bank.begin("t" + transfer);
        produce(connect, bank.change("accounts", from, balances[from]));
        produce(connect, bank.change("accounts", to, balances[to]));
        lastOffset = produce(connect, bank.change("transfers", transfer, amount));
        if (transfer < TRANSFERS) {
          produceEnd(connect, bank);
        }
      }
      long beforeTheLast = lastOffset - 3;
      Await.until("the transfers before the last in table accounts", CATCH_UP, this::accountsVersion,
          version -> version.isPresent() && version.get() >= beforeTheLast);
      assertThat(accountsVersion()).as("the last transfer waits for its END (seed %d)", seed).contains(beforeTheLast);

      produceEnd(connect, bank);
      long last = lastOffset;
      Await.until("the last transfer in table transfers", CATCH_UP,
          () -> KernelTables.txnVersion(table("transfers"), appId()), version -> version.isPresent() && version.get() == last);
    }
    String accounts = table("accounts");
    for (long version = 0; version <= KernelTables.latestVersion(accounts); version++) {
      List<Row> rows = KernelTables.readRows(accounts, version);
      if (!rows.isEmpty()) {
        assertThat(rows).as("the accounts at version %d (seed %d)", version, seed).hasSize(ACCOUNTS);
        assertThat(rows.stream().mapToLong(row -> (Long) row.get(1)).sum()).as("the total at version %d (seed %d)", version, seed)
            .isEqualTo(ACCOUNTS * OPENING_BALANCE);
      }
    }
    for (int account = 0; account < ACCOUNTS; account++) {
      assertThat(KernelTables.readRows(accounts)).as("seed %d", seed).contains(Row.of((long) account, balances[account]));
    }
    assertThat(KernelTables.readRows(table("transfers"))).hasSize(TRANSFERS);
  }

  private static long produce(LocalConnect connect, KafkaRecord record) {
    return connect.produce(record.topic(), record.partition().partition(), record.keySchema(), record.key(), record.valueSchema(),
        record.value());
  }

  private static void produceEnd(LocalConnect connect, TransactionRecords bank) {
    connect.produce(TransactionRecords.TRANSACTION_TOPIC, 0, Schema.OPTIONAL_STRING_SCHEMA, null, TransactionRecords.END, bank.end());
  }

  private Map<String, String> sinkConfig(LocalConnect connect) {
    return Map.of(
        "connector.class", MergeSinkConnector.class.getName(),
        "tasks.max", "1",
        "topics", TransactionRecords.TOPIC,
        "table.root", tables.toString(),
        "table.name.format", "${source.table}",
        "commit.interval.ms", "300",
        "transaction.kafka.bootstrap.servers", connect.bootstrapServers());
  }

  private Optional<Long> accountsVersion() {
    return tables.resolve("accounts").resolve("_delta_log").toFile().exists()
        ? KernelTables.txnVersion(table("accounts"), appId()) : Optional.empty();
  }

  private String table(String name) {
    return tables.resolve(name).toString();
  }

  private static String appId() {
    return CONNECTOR + ":" + TransactionRecords.TOPIC + ":0";
  }
}
