package io.mergesink.bench;

import io.mergesink.localpg.LocalPostgres;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.postgresql.PGConnection;

/**
 * The Debezium JDBC sink (3.6.0.Final) upserting into a table of the throwaway PostgreSQL of
 * {@code local-postgres}: what Debezium users run today to keep a replica table. Configured as its
 * documentation recommends for a replica: {@code insert.mode=upsert} ({@code INSERT ... ON
 * CONFLICT DO UPDATE}), {@code delete.enabled=true}, {@code primary.key.mode=record_key}, its
 * reduction buffer on (one statement per key per batch) and {@code batch.size} as given. The table
 * is created up front with the column types the sink itself would create, so both workloads write
 * the same table; the mixed workloads' rows are loaded with {@code COPY}.
 */
final class JdbcSinkPeer implements Peer {
  private static final String CONNECTOR_CLASS = "io.debezium.connector.jdbc.JdbcSinkConnector";
  private static final long MICROS_PER_SECOND = 1_000_000;
  private static final int NANOS_PER_MICRO = 1_000;
  private static final int COPY_CHUNK_ROWS = 100_000;

  private final LocalPostgres postgres;
  private final RecordFormat format;
  private final int batchSize;

  JdbcSinkPeer(LocalPostgres postgres, RecordFormat format, int batchSize) {
    this.postgres = postgres;
    this.format = format;
    this.batchSize = batchSize;
  }

  @Override
  public String optionName() {
    return "jdbc" + (format == RecordFormat.JSON ? "" : "-" + format.label());
  }

  @Override
  public String label() {
    return "Debezium JDBC sink upsert into PostgreSQL, " + (format == RecordFormat.JSON ? "JsonConverter" : "DebeziumJsonConverter");
  }

  @Override
  public void prepare(String topic, E2eWorkload workload) throws IOException {
    String table = Peer.tableName(topic);
    postgres.execute("DROP TABLE IF EXISTS " + table,
        "CREATE TABLE " + table + " (id bigint PRIMARY KEY, name text, balance numeric(12,2), updated_at timestamp(6), quantity integer)");
    if (workload.kind() == E2eWorkload.Kind.INSERT_ONLY) {
      return;
    }
    try (Connection connection = postgres.connect()) {
      StringBuilder rows = new StringBuilder();
      long inChunk = 0;
      for (long id = 0; id < workload.insertedKeys(); id++) {
        if (workload.isLive(id)) {
          appendRow(rows, id, workload.version(id));
          if (++inChunk == COPY_CHUNK_ROWS) {
            copy(connection, table, rows);
            rows.setLength(0);
            inChunk = 0;
          }
        }
      }
      copy(connection, table, rows);
      try (Statement statement = connection.createStatement()) {
        statement.execute("ANALYZE " + table);
      }
    } catch (SQLException e) {
      throw new IOException("cannot load the rows of " + table + " into " + postgres.jdbcUrl() + ": " + e.getMessage(), e);
    }
  }

  /** One COPY text line with the columns of customer {@code id}'s row in {@code version}, as the bench's events carry them. */
  private static void appendRow(StringBuilder rows, long id, int version) {
    Struct row = DebeziumEvents.upsert("c", id, version).getStruct("after");
    long micros = row.getInt64("updated_at");
    LocalDateTime updatedAt = LocalDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
        Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO), ZoneOffset.UTC);
    rows.append(id).append('\t').append(row.getString("name")).append('\t').append(((BigDecimal) row.get("balance")).toPlainString())
        .append('\t').append(updatedAt).append('\t').append(row.getInt32("quantity")).append('\n');
  }

  private static void copy(Connection connection, String table, CharSequence rows) throws SQLException, IOException {
    connection.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN", new StringReader(rows.toString()));
  }

  @Override
  public Map<String, String> connectorConfig(String topic, String connector, int tasks) {
    Map<String, String> config = Peer.baseConfig(format, CONNECTOR_CLASS, tasks, topic);
    config.put("connection.url", postgres.jdbcUrl());
    config.put("connection.username", LocalPostgres.USER);
    config.put("connection.password", LocalPostgres.PASSWORD);
    config.put("insert.mode", "upsert");
    config.put("delete.enabled", "true");
    config.put("primary.key.mode", "record_key");
    config.put("primary.key.fields", "id");
    config.put("schema.evolution", "none");
    config.put("collection.name.format", Peer.tableName(topic));
    config.put("batch.size", Integer.toString(batchSize));
    config.put("use.reduction.buffer", "true");
    return config;
  }

  @Override
  public String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException {
    String table = Peer.tableName(topic);
    long rows = 0;
    long wrong = 0;
    String firstWrong = null;
    BitSet seen = new BitSet();
    try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.setFetchSize(COPY_CHUNK_ROWS);
      try (ResultSet result = statement.executeQuery("SELECT id, name FROM " + table)) {
        while (result.next()) {
          rows++;
          long id = result.getLong(1);
          String name = result.getString(2);
          boolean right = workload.isLive(id) && !seen.get(Math.toIntExact(id)) && DebeziumEvents.name(id, workload.version(id)).equals(name);
          seen.set(Math.toIntExact(id));
          if (!right && wrong++ == 0) {
            firstWrong = "id " + id + " name " + name;
          }
        }
      }
    } catch (SQLException e) {
      throw new IOException("cannot read " + table + " from " + postgres.jdbcUrl() + ": " + e.getMessage(), e);
    }
    if (rows != workload.liveCount() || wrong > 0) {
      throw new IllegalStateException("PostgreSQL table " + table + " has " + rows + " rows where the workload leaves " + workload.liveCount()
          + " live keys; " + wrong + " wrong row(s)" + (firstWrong == null ? "" : ", first: " + firstWrong));
    }
    return String.format("%,d rows = live keys, last versions", rows);
  }
}
