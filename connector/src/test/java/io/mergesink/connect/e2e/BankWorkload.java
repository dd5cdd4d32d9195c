package io.mergesink.connect.e2e;

import io.mergesink.localpg.LocalPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A bank in PostgreSQL for the transaction tests: accounts in two tables, {@code accounts_a} and
 * {@code accounts_b} ({@code id}, {@code balance}, {@code last_transfer}: the transfer that last
 * changed the row), and {@code transfers}. Each transfer is one transaction: it moves money between two
 * accounts (of one table or of both) and inserts its row into {@code transfers}, so the total over both
 * account tables never changes and every transfer row comes with both its account updates. A
 * {@linkplain #heartbeat heartbeat} is a transaction that changes table {@code heartbeat} only.
 *
 * <p>Remembers every transaction it committed (by PostgreSQL transaction id, the {@code txId} of
 * Debezium's transaction ids) and every account's balance after each transfer, so a reader can tell
 * the state of each table after any of them. One thread runs the transactions; any may read the
 * history, which holds a transaction before it commits.
 */
final class BankWorkload {
  static final String ACCOUNTS_A = "accounts_a";
  static final String ACCOUNTS_B = "accounts_b";
  static final List<String> ACCOUNT_TABLES = List.of(ACCOUNTS_A, ACCOUNTS_B);
  static final String TRANSFERS = "transfers";
  /** Changed by heartbeats only; the sink does not subscribe to its topic. */
  static final String HEARTBEAT = "heartbeat";
  static final int ACCOUNTS_PER_TABLE = 20;
  static final long OPENING_BALANCE = 1_000;
  /** The total over both account tables, in every state of the source. */
  static final long TOTAL = ACCOUNT_TABLES.size() * ACCOUNTS_PER_TABLE * OPENING_BALANCE;
  private static final int MAX_AMOUNT = 100;

  /** An account: a row of one of the account tables. */
  record Account(String table, int id) {}

  /** A transfer: its id (its row's key in {@code transfers}) and the accounts it takes from and gives to. */
  record Transfer(int id, Account from, Account to, long amount) {
    /** Whether both its accounts are in {@code table}: then it changes that table twice. */
    boolean within(String table) {
      return from.table().equals(table) && to.table().equals(table);
    }
  }

  private final LocalPostgres postgres;
  private final Random random;
  private final Map<Integer, Transfer> transfers = new ConcurrentHashMap<>();
  /** Account → transfer id → its balance after that transfer (0: the opening balance). */
  private final Map<Account, NavigableMap<Integer, Long>> balances = new ConcurrentHashMap<>();
  /** PostgreSQL transaction id → how many transfers were committed up to and with it. */
  private final NavigableMap<Long, Integer> committed = new ConcurrentSkipListMap<>();
  private volatile int transferCount;
  private Connection connection;

  BankWorkload(LocalPostgres postgres, long seed) {
    this.postgres = postgres;
    this.random = new Random(seed);
  }

  /** Creates the tables and opens every account with {@value #OPENING_BALANCE}: rows Debezium's snapshot reads. */
  void createTablesAndOpenAccounts() {
    for (String table : ACCOUNT_TABLES) {
      postgres.execute("CREATE TABLE " + table + " (id integer PRIMARY KEY, balance bigint NOT NULL,"
          + " last_transfer integer NOT NULL)",
          "INSERT INTO " + table + " SELECT g, " + OPENING_BALANCE + ", 0 FROM generate_series(1, " + ACCOUNTS_PER_TABLE + ") g");
      for (int id = 1; id <= ACCOUNTS_PER_TABLE; id++) {
        NavigableMap<Integer, Long> history = new ConcurrentSkipListMap<>();
        history.put(0, OPENING_BALANCE);
        balances.put(new Account(table, id), history);
      }
    }
    postgres.execute("CREATE TABLE " + TRANSFERS + " (id integer PRIMARY KEY, from_table text NOT NULL,"
            + " from_id integer NOT NULL, to_table text NOT NULL, to_id integer NOT NULL, amount bigint NOT NULL)",
        "CREATE TABLE " + HEARTBEAT + " (id integer PRIMARY KEY, beats bigint NOT NULL)",
        "INSERT INTO " + HEARTBEAT + " VALUES (1, 0)");
  }

  /** One transfer between two random accounts, in one transaction. */
  void transfer() {
    Account from = randomAccount();
    Account to = randomAccountBut(from);
    Transfer transfer = new Transfer(transferCount + 1, from, to, 1 + random.nextInt(MAX_AMOUNT));
    long fromBalance = balance(from, transfer.id()) - transfer.amount();
    long toBalance = balance(to, transfer.id()) + transfer.amount();
    inTransaction(transfer.id(), connection -> {
      update(connection, from, fromBalance, transfer.id());
      update(connection, to, toBalance, transfer.id());
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TRANSFERS + " VALUES (?, ?, ?, ?, ?, ?)")) {
        insert.setInt(1, transfer.id());
        insert.setString(2, from.table());
        insert.setInt(3, from.id());
        insert.setString(4, to.table());
        insert.setInt(5, to.id());
        insert.setLong(6, transfer.amount());
        insert.executeUpdate();
      }
      transfers.put(transfer.id(), transfer);
      balances.get(from).put(transfer.id(), fromBalance);
      balances.get(to).put(transfer.id(), toBalance);
    });
    transferCount = transfer.id();
  }

  /** A transaction that changes table {@value #HEARTBEAT} only: it moves the source's time on. */
  void heartbeat() {
    inTransaction(transferCount, connection -> {
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate("UPDATE " + HEARTBEAT + " SET beats = beats + 1 WHERE id = 1");
      }
    });
  }

  /** Closes the connection the transactions ran on. */
  void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        throw new IllegalStateException("cannot close the connection to " + postgres.jdbcUrl() + ": " + e.getMessage(), e);
      }
    }
  }

  /** How many transfers were committed. */
  int transferCount() {
    return transferCount;
  }

  /** Transfer {@code id} (1 to {@link #transferCount()}). */
  Transfer transfer(int id) {
    return transfers.get(id);
  }

  /** The accounts, in table and id order. */
  List<Account> accounts() {
    return balances.keySet().stream().sorted((a, b) -> a.table().equals(b.table()) ? Integer.compare(a.id(), b.id())
        : a.table().compareTo(b.table())).toList();
  }

  /** The balance of {@code account} after the transfers up to {@code transfer} (0: none). */
  long balance(Account account, int transfer) {
    return balances.get(account).floorEntry(transfer).getValue();
  }

  /** The newest transfer up to {@code transfer} that changed {@code account} (0: none). */
  int lastTransfer(Account account, int transfer) {
    return balances.get(account).floorKey(transfer);
  }

  /** Whether {@code account}'s balance after transfer {@code lastTransfer} was {@code balance}. */
  boolean balanceAfter(Account account, int lastTransfer, long balance) {
    NavigableMap<Integer, Long> history = balances.get(account);
    return history != null && Long.valueOf(balance).equals(history.get(lastTransfer));
  }

  /** How many transfers were committed up to and with PostgreSQL transaction {@code txId}; null: not one of this bank's. */
  Integer transfersThrough(long txId) {
    return committed.get(txId);
  }

  private Account randomAccountBut(Account other) {
    Account account = randomAccount();
    return account.equals(other) ? randomAccountBut(other) : account;
  }

  private Account randomAccount() {
    return new Account(ACCOUNT_TABLES.get(random.nextInt(ACCOUNT_TABLES.size())), 1 + random.nextInt(ACCOUNTS_PER_TABLE));
  }

  private static void update(Connection connection, Account account, long balance, int transfer) throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(
        "UPDATE " + account.table() + " SET balance = ?, last_transfer = ? WHERE id = ?")) {
      update.setLong(1, balance);
      update.setInt(2, transfer);
      update.setInt(3, account.id());
      update.executeUpdate();
    }
  }

  private interface Statements {
    void run(Connection connection) throws SQLException;
  }

  /** Runs {@code statements} in one transaction, recorded as committing transfers up to {@code transfersThrough}. */
  private void inTransaction(int transfersThrough, Statements statements) {
    try {
      if (connection == null) {
        connection = postgres.connect();
        connection.setAutoCommit(false);
      }
      statements.run(connection);
      try (Statement statement = connection.createStatement(); ResultSet txId = statement.executeQuery("SELECT txid_current()")) {
        txId.next();
        committed.put(txId.getLong(1), transfersThrough);
      }
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("a transaction of the bank failed on " + postgres.jdbcUrl() + ": " + e.getMessage(), e);
    }
  }
}
