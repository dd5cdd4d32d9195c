package io.mergesink.connect.e2e;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.data.Row;
import io.mergesink.ingest.testing.SinkTables;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The differences between a PostgreSQL table and the table MergeSink wrote for it (read by its
 * format's independent reader, {@link SinkTables}: Delta Kernel, Iceberg's generic reader, Paimon's
 * {@code ReadBuilder}): schema (column names and types, in order, as the format stores them), then
 * rows matched by primary key. {@code jsonb} columns are compared as parsed JSON, since PostgreSQL
 * normalizes jsonb text.
 */
final class TableDiff {
  /** How many differing keys of each kind a report lists. */
  private static final int MAX_LISTED = 10;
  /** Longest value text in a report; TOASTed values are 100 kB. */
  private static final int MAX_VALUE_CHARS = 60;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> problems = new ArrayList<>();

  private TableDiff() {}

  /**
   * Compares {@code expected} with the table of {@code format} at {@code path}.
   *
   * @return the differences, one per line; empty when the tables are equal
   */
  static String compare(PostgresTable expected, SinkTables format, String path) {
    TableDiff diff = new TableDiff();
    diff.run(expected, format, path);
    return String.join("\n", diff.problems);
  }

  private void run(PostgresTable expected, SinkTables format, String path) {
    StructType actualSchema = format.schema(path);
    StructType storedSchema = format.stored(expected.schema());
    if (!types(actualSchema).equals(types(storedSchema))) {
      problems.add("table " + path + ": schema " + types(actualSchema) + ", expected " + types(storedSchema)
          + " (from public." + expected.name() + ")");
      return;
    }
    List<Row> actualRows = format.readRows(path).stream().map(row -> parseJson(row, expected)).toList();
    Map<Row, Row> actual = PostgresTable.byKey(actualRows, storedSchema, expected.keyColumns());
    Map<Row, Row> wanted = PostgresTable.byKey(expected.rows().stream()
        .map(row -> parseJson(format.stored(expected.schema(), row), expected)).toList(), storedSchema, expected.keyColumns());
    List<String> missing = new ArrayList<>();
    List<String> different = new ArrayList<>();
    for (Map.Entry<Row, Row> row : wanted.entrySet()) {
      Row found = actual.get(row.getKey());
      if (found == null) {
        missing.add(abbreviate(row.getValue()));
      } else if (!found.equals(row.getValue())) {
        different.add("key " + row.getKey() + ": " + columnDiff(storedSchema, row.getValue(), found));
      }
    }
    List<String> unexpected = actual.entrySet().stream().filter(row -> !wanted.containsKey(row.getKey()))
        .map(row -> abbreviate(row.getValue())).toList();
    String where = "table " + path + " vs public." + expected.name() + " (" + wanted.size() + " rows, the sink's table has "
        + actual.size() + ")";
    report(where, "rows missing from the sink's table", missing);
    report(where, "rows in the sink's table but not in PostgreSQL", unexpected);
    report(where, "rows that differ", different);
  }

  private void report(String where, String what, List<String> items) {
    if (!items.isEmpty()) {
      problems.add(where + ": " + items.size() + " " + what + ", e.g. "
          + String.join("; ", items.subList(0, Math.min(MAX_LISTED, items.size()))));
    }
  }

  private static List<String> types(StructType schema) {
    return schema.fields().stream().map(field -> field.name() + " " + field.type()).toList();
  }

  private static String columnDiff(StructType schema, Row expected, Row actual) {
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      if (!Row.of(expected.get(i)).equals(Row.of(actual.get(i)))) {
        StructField field = schema.field(i);
        columns.add(field.name() + " is " + abbreviate(actual.get(i)) + ", expected " + abbreviate(expected.get(i)));
      }
    }
    return String.join(", ", columns);
  }

  /** {@code row} with its jsonb columns parsed, so that equal JSON compares equal. */
  private static Row parseJson(Row row, PostgresTable table) {
    if (table.jsonColumns().isEmpty()) {
      return row;
    }
    Object[] values = row.toArray();
    for (String column : table.jsonColumns()) {
      int ordinal = table.schema().indexOf(column);
      if (values[ordinal] instanceof String text) {
        try {
          values[ordinal] = JSON.readTree(text);
        } catch (JsonProcessingException e) {
          values[ordinal] = "not JSON: " + text;
        }
      }
    }
    return Row.of(values);
  }

  /** A row for messages: long values cut, binary values as length and first bytes. */
  static String abbreviate(Row row) {
    return Arrays.stream(row.toArray()).map(TableDiff::abbreviate).toList().toString();
  }

  private static String abbreviate(Object value) {
    String text;
    if (value instanceof byte[] bytes) {
      text = "bytes[" + bytes.length + "] 0x" + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, MAX_VALUE_CHARS / 2));
    } else {
      text = Objects.toString(value);
    }
    if (text.length() > MAX_VALUE_CHARS) {
      text = text.substring(0, MAX_VALUE_CHARS) + "…(" + text.length() + " chars)";
    }
    return value instanceof String ? "'" + text + "'" : text;
  }
}
