package io.mergesink.connect.e2e;

import io.mergesink.localpg.LocalPostgres;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL table as MergeSink should have written it: its Delta schema and its rows, each
 * column in the sink's in-memory representation ({@link SinkRepresentation}), read over JDBC.
 *
 * @param name the table's name in schema {@code public}
 * @param schema the Delta schema the sink should create (types and column order of PostgreSQL)
 * @param keyColumns the primary key columns, in key order
 * @param jsonColumns the {@code jsonb} columns (strings to compare as parsed JSON)
 * @param rows the rows in {@code schema} order
 */
record PostgresTable(String name, StructType schema, List<String> keyColumns, List<String> jsonColumns, List<Row> rows) {
  private static final int FETCH_SIZE = 10_000;
  private static final String COLUMNS = "SELECT column_name, data_type, udt_name, numeric_precision, numeric_scale,"
      + " is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?"
      + " ORDER BY ordinal_position";
  private static final String KEY = "SELECT a.attname FROM pg_index i"
      + " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position) ON true"
      + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
      + " WHERE i.indrelid = ('public.' || ?)::regclass AND i.indisprimary ORDER BY k.position";

  /**
   * Reads table {@code public.<name>} in one transaction (REPEATABLE READ, so schema and rows agree).
   *
   * @throws IllegalStateException naming the table when it cannot be read or has a column type
   *     without a written-down representation
   */
  static PostgresTable read(LocalPostgres postgres, String name) {
    try (Connection connection = postgres.connect()) {
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      List<StructField> fields = new ArrayList<>();
      List<SinkRepresentation> representations = new ArrayList<>();
      List<String> json = new ArrayList<>();
      List<String> names = new ArrayList<>();
      try (PreparedStatement columns = connection.prepareStatement(COLUMNS)) {
        columns.setString(1, name);
        try (ResultSet result = columns.executeQuery()) {
          while (result.next()) {
            String column = result.getString("column_name");
            names.add('"' + column + '"');
            SinkRepresentation representation = SinkRepresentation.of(result.getString("data_type"),
                result.getString("udt_name"), (Integer) result.getObject("numeric_scale"));
            representations.add(representation);
            fields.add(new StructField(column, representation.deltaType((Integer) result.getObject("numeric_precision"),
                (Integer) result.getObject("numeric_scale")), "YES".equals(result.getString("is_nullable"))));
            if ("jsonb".equals(result.getString("udt_name"))) {
              json.add(column);
            }
          }
        }
      }
      if (fields.isEmpty()) {
        throw new IllegalStateException("no table public." + name + " in " + postgres.jdbcUrl());
      }
      List<String> key = new ArrayList<>();
      try (PreparedStatement keyQuery = connection.prepareStatement(KEY)) {
        keyQuery.setString(1, name);
        try (ResultSet result = keyQuery.executeQuery()) {
          while (result.next()) {
            key.add(result.getString(1));
          }
        }
      }
      List<Row> rows = new ArrayList<>();
      try (Statement select = connection.createStatement()) {
        select.setFetchSize(FETCH_SIZE);
        try (ResultSet result = select.executeQuery("SELECT " + String.join(", ", names) + " FROM public." + name)) {
          while (result.next()) {
            Object[] values = new Object[fields.size()];
            for (int i = 0; i < values.length; i++) {
              values[i] = representations.get(i).read(result, i + 1);
            }
            rows.add(Row.of(values));
          }
        }
      }
      connection.commit();
      return new PostgresTable(name, new StructType(fields), List.copyOf(key), List.copyOf(json), rows);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read table public." + name + " from " + postgres.jdbcUrl() + ": "
          + e.getMessage(), e);
    }
  }

  /** Rows by primary key. */
  Map<Row, Row> rowsByKey() {
    return byKey(rows, schema, keyColumns);
  }

  /** {@code rows} of {@code schema} by their {@code keyColumns}; a duplicate key fails with both rows. */
  static Map<Row, Row> byKey(List<Row> rows, StructType schema, List<String> keyColumns) {
    int[] ordinals = keyColumns.stream().mapToInt(schema::indexOf).toArray();
    Map<Row, Row> byKey = new LinkedHashMap<>();
    for (Row row : rows) {
      Row previous = byKey.put(row.project(ordinals), row);
      if (previous != null) {
        throw new AssertionError("two rows with key " + keyColumns + " = " + row.project(ordinals) + ": "
            + TableDiff.abbreviate(previous) + " and " + TableDiff.abbreviate(row));
      }
    }
    return byKey;
  }
}
