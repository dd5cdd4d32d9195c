package io.mergesink.connect.e2e;

import io.mergesink.localpg.LocalPostgres;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * The SQL workload of the end-to-end tests, on two tables:
 *
 * <ul>
 *   <li>{@code accounts}: an integer key and one column of every type users have (see
 *       {@link SinkRepresentation}), among them {@code notes} and {@code blob}, which hold 100 kB of
 *       incompressible data in some rows, so PostgreSQL stores them out of line (TOAST). The
 *       table keeps {@code REPLICA IDENTITY DEFAULT}: an update that leaves them alone carries
 *       Debezium's {@code __debezium_unavailable_value} placeholder instead of their value.
 *   <li>{@code line_items}: a composite key {@code (order_id bigint, line integer)}; the large
 *       transaction inserts and then updates {@value #LARGE_TRANSACTION_ROWS} rows of it.
 * </ul>
 *
 * Values are random from a seed (name it in failure messages); the statements are not.
 */
final class Workload {
  static final String ACCOUNTS = "accounts";
  static final String LINE_ITEMS = "line_items";
  /** Rows the large transaction inserts, then updates, in one transaction. */
  static final int LARGE_TRANSACTION_ROWS = 100_000;
  /** Characters (and bytes) of a TOASTed value: far over PostgreSQL's ~2 kB TOAST threshold. */
  static final int TOAST_SIZE = 100_000;
  /** Accounts whose {@code notes} are TOASTed and that streamed updates leave alone: the sink must keep them. */
  static final List<Integer> TOAST_KEPT = List.of(1, 2, 61, 2000);
  /** Key of the row the last statement inserts into each table; its arrival marks the end of the stream. */
  static final int END_MARKER = 999_999;

  private static final int SNAPSHOT_ACCOUNTS = 60;
  private static final int STREAMED_ACCOUNTS = 100;
  private static final int SNAPSHOT_ORDERS = 20;
  private static final int LINES_PER_ORDER = 10;
  private static final int LARGE_ORDER_BASE = 1_000_000;
  private static final long MAX_BALANCE_UNSCALED = 1_000_000_000_000L; // numeric(12,2): 10 integer digits
  private static final int MAX_RATIO_BITS = 160; // up to 49 digits: more than a Delta decimal could hold
  private static final int MAX_RATIO_SCALE = 30;
  private static final int HALF_HOUR_SECONDS = 1_800;
  private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final String[] NAME_PARTS = {"ada", "Ünal", "O'Brien", "李", "🙂", "back\\slash", "tab\t", "\"q\""};
  private static final String INSERT_ACCOUNT = "INSERT INTO accounts (id, balance, ratio, score, weight, name, code,"
      + " active, born, created, updated, alarm, attrs, ref, blob, tags, notes)"
      + " VALUES (?, ?, ?::numeric, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)";
  private static final String UPDATE_ACCOUNT = "UPDATE accounts SET balance = ?, ratio = ?::numeric, score = ?,"
      + " name = ?, attrs = ?::jsonb, updated = ?, tags = ? WHERE id = ?";

  private final LocalPostgres postgres;
  private final Random random;

  Workload(LocalPostgres postgres, long seed) {
    this.postgres = postgres;
    this.random = new Random(seed);
  }

  /** Creates both tables and inserts the rows Debezium's initial snapshot reads. */
  void createTablesAndSnapshotRows() {
    postgres.execute(
        "CREATE TABLE accounts (id integer PRIMARY KEY, balance numeric(12,2), ratio numeric, score real,"
            + " weight double precision, name text, code varchar(20), active boolean, born date, created timestamp,"
            + " updated timestamptz, alarm time, attrs jsonb, ref uuid, blob bytea, tags integer[], notes text)",
        "CREATE TABLE line_items (order_id bigint, line integer, qty integer NOT NULL, price numeric(12,2),"
            + " note varchar(40), shipped boolean, PRIMARY KEY (order_id, line))");
    try (Connection connection = postgres.connect()) {
      for (int id = 1; id <= SNAPSHOT_ACCOUNTS; id++) {
        insertAccount(connection, id, id <= 5);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot insert the snapshot accounts: " + e.getMessage(), e);
    }
    postgres.execute("INSERT INTO line_items SELECT o, l, o * l, (o * 100 + l) / 100.0, 'line ' || l, l % 2 = 0"
        + " FROM generate_series(1, " + SNAPSHOT_ORDERS + ") o, generate_series(1, " + LINES_PER_ORDER + ") l");
  }

  /** How many change events the snapshot makes per table. */
  static long snapshotEvents(String table) {
    return ACCOUNTS.equals(table) ? SNAPSHOT_ACCOUNTS : (long) SNAPSHOT_ORDERS * LINES_PER_ORDER;
  }

  /**
   * Streamed changes: inserts, updates (TOASTed columns left alone, changed, nulled), deletes, a
   * re-insert of a deleted key, primary key changes of both key kinds, and one transaction with
   * many changes to the same keys.
   */
  void streamedChanges() {
    try (Connection connection = postgres.connect()) {
      for (int id = SNAPSHOT_ACCOUNTS + 1; id <= SNAPSHOT_ACCOUNTS + STREAMED_ACCOUNTS; id++) {
        insertAccount(connection, id, id <= SNAPSHOT_ACCOUNTS + 3);
      }
      for (int i = 0; i < 40; i++) {
        updateAccount(connection, 1 + random.nextInt(SNAPSHOT_ACCOUNTS + STREAMED_ACCOUNTS));
      }
      execute(connection,
          // TOASTed notes and blob left alone, the row from the snapshot (1, 2) or streamed (61)
          "UPDATE accounts SET balance = 1.25, active = NOT coalesce(active, false), code = 'toast kept' WHERE id IN (1, 2, 61)",
          "UPDATE accounts SET notes = '" + incompressibleText() + "' WHERE id = 4",
          "UPDATE accounts SET notes = NULL, blob = NULL WHERE id = 5",
          "UPDATE accounts SET notes = 'short now' WHERE id = 62",
          "DELETE FROM accounts WHERE id IN (10, 11, 70)",
          "DELETE FROM line_items WHERE order_id = 2",
          // key changes: Debezium sends a delete of the old key and a create of the new one
          "UPDATE accounts SET id = 1000 WHERE id = 20",
          "UPDATE accounts SET id = 1001 WHERE id = 3", // TOASTed notes and blob, left alone
          "UPDATE line_items SET line = line + 100 WHERE order_id = 3",
          "UPDATE line_items SET order_id = 9999 WHERE order_id = 4 AND line = 1");
      insertAccount(connection, 10, false);

      connection.setAutoCommit(false);
      for (int i = 1; i <= 25; i++) {
        execute(connection, "UPDATE accounts SET balance = " + i + ", name = 'version " + i + "' WHERE id = 7");
      }
      execute(connection, "DELETE FROM accounts WHERE id = 8");
      insertAccount(connection, 8, false);
      updateAccount(connection, 8);
      insertAccount(connection, 2000, true);
      execute(connection, "UPDATE accounts SET balance = 20.00 WHERE id = 2000",
          "UPDATE accounts SET weight = 2.5 WHERE id = 2000");
      for (int i = 0; i < 10; i++) {
        execute(connection, "UPDATE line_items SET qty = qty + 1 WHERE order_id = 5");
      }
      execute(connection, "DELETE FROM line_items WHERE order_id = 6 AND line = 1",
          "INSERT INTO line_items VALUES (6, 1, 42, 4.20, 're-inserted', true)");
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("streamed changes failed: " + e.getMessage(), e);
    }
  }

  /** One transaction: inserts {@value #LARGE_TRANSACTION_ROWS} line items, then updates all of them. */
  void largeTransaction() {
    try (Connection connection = postgres.connect()) {
      connection.setAutoCommit(false);
      execute(connection,
          "INSERT INTO line_items SELECT " + LARGE_ORDER_BASE + " + g, g % 7, g % 100, (g % 100000) / 100.0, 'bulk ' || g,"
              + " g % 2 = 0 FROM generate_series(1, " + LARGE_TRANSACTION_ROWS + ") g",
          "UPDATE line_items SET qty = qty + 1, shipped = NOT shipped, note = note || ' updated'"
              + " WHERE order_id > " + LARGE_ORDER_BASE);
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("large transaction failed: " + e.getMessage(), e);
    }
  }

  /** Changes after the large transaction: deletes of some of its rows, more updates of accounts. */
  void afterLargeTransaction() {
    try (Connection connection = postgres.connect()) {
      execute(connection, "DELETE FROM line_items WHERE order_id BETWEEN " + (LARGE_ORDER_BASE + 1) + " AND "
          + (LARGE_ORDER_BASE + 500));
      for (int i = 0; i < 20; i++) {
        updateAccount(connection, 1 + random.nextInt(SNAPSHOT_ACCOUNTS + STREAMED_ACCOUNTS));
      }
      execute(connection, "UPDATE accounts SET score = 0.5 WHERE id IN (1, 2, 61, 2000)");
    } catch (SQLException e) {
      throw new IllegalStateException("changes after the large transaction failed: " + e.getMessage(), e);
    }
  }

  /** Inserts {@link #END_MARKER} into both tables, the last statement of the workload. */
  void markEnd() {
    postgres.execute("INSERT INTO accounts (id, name) VALUES (" + END_MARKER + ", 'end')",
        "INSERT INTO line_items (order_id, line, qty) VALUES (" + END_MARKER + ", 0, 0)");
  }

  private void insertAccount(Connection connection, int id, boolean toasted) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(INSERT_ACCOUNT)) {
      insert.setInt(1, id);
      insert.setObject(2, maybeNull(balance()));
      insert.setObject(3, maybeNull(ratio()));
      insert.setObject(4, maybeNull(random.nextFloat() * 1000 - 500));
      insert.setObject(5, maybeNull(random.nextGaussian() * 1e9));
      insert.setObject(6, maybeNull(name()));
      insert.setObject(7, maybeNull(text(random.nextInt(21))));
      insert.setObject(8, maybeNull(random.nextBoolean()));
      insert.setObject(9, maybeNull(LocalDate.of(1900, 1, 1).plusDays(random.nextInt(73_000))));
      insert.setObject(10, maybeNull(LocalDateTime.of(1900, 1, 1, 0, 0).plusNanos(micros(6_000_000_000_000_000L) * 1000)));
      insert.setObject(11, maybeNull(timestamptz()));
      insert.setObject(12, maybeNull(LocalTime.ofNanoOfDay(micros(86_400_000_000L) * 1000)));
      insert.setObject(13, maybeNull(json()));
      insert.setObject(14, maybeNull(new UUID(random.nextLong(), random.nextLong())));
      insert.setObject(15, toasted ? incompressibleBytes() : maybeNull(bytes(random.nextInt(64))));
      insert.setObject(16, maybeNull(connection.createArrayOf("int4", intArray())));
      insert.setObject(17, toasted ? incompressibleText() : maybeNull(text(random.nextInt(200))));
      insert.executeUpdate();
    }
  }

  private void updateAccount(Connection connection, int id) throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(UPDATE_ACCOUNT)) {
      update.setObject(1, maybeNull(balance()));
      update.setObject(2, maybeNull(ratio()));
      update.setObject(3, maybeNull(random.nextFloat()));
      update.setObject(4, maybeNull(name()));
      update.setObject(5, maybeNull(json()));
      update.setObject(6, maybeNull(timestamptz()));
      update.setObject(7, maybeNull(connection.createArrayOf("int4", intArray())));
      update.setInt(8, id);
      update.executeUpdate();
    }
  }

  private static void execute(Connection connection, String... statements) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  private Object maybeNull(Object value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  private BigDecimal balance() {
    return BigDecimal.valueOf(random.nextLong(-MAX_BALANCE_UNSCALED + 1, MAX_BALANCE_UNSCALED), 2);
  }

  /** Plain numeric: any scale (trailing zeros kept), sometimes more digits than a Delta decimal holds. */
  private String ratio() {
    BigInteger unscaled = new BigInteger(1 + random.nextInt(MAX_RATIO_BITS), random);
    BigDecimal value = new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), random.nextInt(MAX_RATIO_SCALE));
    return value.toPlainString();
  }

  private OffsetDateTime timestamptz() {
    ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-22, 24) * HALF_HOUR_SECONDS);
    return OffsetDateTime.of(LocalDateTime.of(1950, 1, 1, 0, 0).plusNanos(micros(4_000_000_000_000_000L) * 1000), offset);
  }

  private long micros(long bound) {
    return random.nextLong(bound);
  }

  private String name() {
    StringBuilder name = new StringBuilder();
    for (int i = random.nextInt(4); i >= 0; i--) {
      name.append(NAME_PARTS[random.nextInt(NAME_PARTS.length)]).append(' ');
    }
    return name.toString().trim();
  }

  private String json() {
    return "{\"b\": " + random.nextInt(1000) + ", \"a\": [true, null, \"x" + random.nextInt(10) + "\"], \"n\": 1.50,"
        + " \"nested\": {\"z\": \"" + text(random.nextInt(10)) + "\", \"e\": {}}}";
  }

  private Integer[] intArray() {
    Integer[] values = new Integer[random.nextInt(6)];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextInt(20) == 0 ? null : random.nextInt();
    }
    return values;
  }

  private String text(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
    }
    return text.toString();
  }

  /** {@value #TOAST_SIZE} random alphanumerics: pglz cannot shrink them under the TOAST threshold. */
  private String incompressibleText() {
    return text(TOAST_SIZE);
  }

  private byte[] incompressibleBytes() {
    return bytes(TOAST_SIZE);
  }

  private byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
