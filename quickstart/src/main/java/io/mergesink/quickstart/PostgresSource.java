package io.mergesink.quickstart;

import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localpg.LocalPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The demo's source when PostgreSQL server binaries are installed: a throwaway server
 * ({@link LocalPostgres}) holding {@code public.orders}, and Debezium's PostgreSQL connector
 * (pgoutput) streaming its changes into {@link #topic()}. Debezium's initial snapshot reads the
 * first orders; every later statement changes one row and so yields one event (two for a delete).
 */
final class PostgresSource implements ChangeSource {
  static final String DDL = "CREATE TABLE orders (id integer PRIMARY KEY, customer text, status text, "
      + "quantity integer, amount numeric(" + Order.AMOUNT_PRECISION + "," + Order.AMOUNT_SCALE + "), "
      + "placed_on date, updated_at timestamptz)";
  private static final String INSERT = "INSERT INTO orders (id, customer, status, quantity, amount, placed_on, "
      + "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
  private static final String UPDATE = "UPDATE orders SET status = ?, updated_at = ? WHERE id = ?";
  private static final String DELETE = "DELETE FROM orders WHERE id = ?";
  private static final Duration STREAMING_TIMEOUT = Duration.ofSeconds(60);

  /** The demo's database; the source connector's topics are {@code shop.public.<table>}. */
  static final String DATABASE = "shop";
  private LocalPostgres postgres;
  private Connection connection;
  private long events;
  private String slotName;

  @Override
  public String description() {
    String major = LocalPostgres.binDir().map(bin -> bin.getParent().getFileName().toString()).orElse("?");
    return "PostgreSQL " + major + " + Debezium PostgreSQL connector (pgoutput)";
  }

  @Override
  public void start(LocalConnect connect, List<Order> initial) {
    postgres = LocalPostgres.start(DATABASE);
    postgres.execute(DDL);
    try {
      connection = postgres.connect();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to " + postgres.jdbcUrl() + ": " + e.getMessage(), e);
    }
    for (Order order : initial) {
      insert(order);
    }
    var config = ConnectorConfigs.debeziumSource(postgres);
    slotName = config.get("slot.name");
    connect.startConnector(ConnectorConfigs.SOURCE_NAME, config);
    // Changes made once the slot streams are never missed; wait for it, not for a fixed time.
    Waits.until("Debezium streaming from replication slot " + slotName, STREAMING_TIMEOUT,
        () -> postgres.queryLong("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slotName
            + "' AND active") == 1);
  }

  @Override
  public void insert(Order order) {
    try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
      statement.setInt(1, order.id());
      statement.setString(2, order.customer());
      statement.setString(3, order.status());
      statement.setInt(4, order.quantity());
      statement.setBigDecimal(5, order.amount());
      statement.setObject(6, order.placedOn());
      statement.setObject(7, OffsetDateTime.ofInstant(order.updatedAt(), ZoneOffset.UTC));
      executeOneRow(statement, INSERT, order.id());
    } catch (SQLException e) {
      throw failed(INSERT, order.id(), e);
    }
  }

  @Override
  public void update(Order order) {
    try (PreparedStatement statement = connection.prepareStatement(UPDATE)) {
      statement.setString(1, order.status());
      statement.setObject(2, OffsetDateTime.ofInstant(order.updatedAt(), ZoneOffset.UTC));
      statement.setInt(3, order.id());
      executeOneRow(statement, UPDATE, order.id());
    } catch (SQLException e) {
      throw failed(UPDATE, order.id(), e);
    }
  }

  @Override
  public void delete(int id) {
    try (PreparedStatement statement = connection.prepareStatement(DELETE)) {
      statement.setInt(1, id);
      executeOneRow(statement, DELETE, id);
      events += EVENTS_PER_DELETE - 1;
    } catch (SQLException e) {
      throw failed(DELETE, id, e);
    }
  }

  @Override
  public void flush() {
    // Statements autocommit; Debezium streams them on its own.
  }

  @Override
  public long expectedEvents() {
    return events;
  }

  @Override
  public long sourceRows() {
    return postgres.queryLong("SELECT count(*) FROM orders");
  }

  @Override
  public String sourceTableName() {
    return "PostgreSQL table " + DATABASE + ".public.orders";
  }

  /** Closes the demo's connection, stops the server and deletes its directory. */
  @Override
  public void close() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      // the server stops next; nothing to keep from this connection
    } finally {
      if (postgres != null) {
        postgres.close();
      }
    }
  }

  private void executeOneRow(PreparedStatement statement, String sql, int id) throws SQLException {
    int rows = statement.executeUpdate();
    if (rows != 1) {
      throw new IllegalStateException("expected '" + sql + "' to change 1 row (id " + id + ") on "
          + postgres.jdbcUrl() + ", but it changed " + rows);
    }
    events++;
  }

  private IllegalStateException failed(String sql, int id, SQLException e) {
    return new IllegalStateException("SQL failed on " + postgres.jdbcUrl() + " for order " + id + ": " + sql + ": "
        + e.getMessage(), e);
  }
}
