package io.mergesink.cli;

import io.mergesink.core.data.Row;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink scan TABLE}: the live rows (deletion vectors, Iceberg's deletes, Paimon's merges
 * applied) as JSON lines or CSV.
 */
@Command(name = "scan", description = "Print the table's live rows as JSON lines (default) or CSV.")
final class ScanCommand extends TableCommand {
  enum Format { JSON, CSV }

  @Option(names = {"-n", "--limit"}, description = "Print at most this many rows (default: all).")
  Long limit;

  @Option(names = {"-c", "--columns"}, split = ",", paramLabel = "COLUMN", description = "Columns to print, in order (default: all).")
  List<String> columns = List.of();

  @Option(names = "--format", defaultValue = "JSON", description = "JSON (one object per line) or CSV with a header (default ${DEFAULT-VALUE}).")
  Format format;

  @Override
  void run(PrintWriter out) throws IOException {
    Snapshot snapshot = snapshot();
    checkOptions(snapshot.schema(), snapshot.tableRoot());
    try (TableScan scan = table().scan(snapshot, columns)) {
      print(out, scan.schema(), scan);
    }
  }

  /** Iceberg's generic reader through the engine's format, deletes applied. */
  @Override
  void runIceberg(PrintWriter out) throws IOException {
    try (IcebergTableRef.Opened opened = openIceberg()) {
      scan(out, opened.table());
    }
  }

  /** Paimon's reader through the engine's format, deletion vectors and merges applied. */
  @Override
  void runPaimon(PrintWriter out) throws IOException {
    try (PaimonTableRef.Opened opened = openPaimon()) {
      scan(out, opened.table());
    }
  }

  private void scan(PrintWriter out, FormatTable table) throws IOException {
    checkOptions(table.schema(), table.location());
    List<String> selected = columns.isEmpty() ? table.schema().fieldNames() : columns;
    try (RowScan scan = table.scan(selected, Map.of())) {
      print(out, table.schema().select(selected), scan);
    }
  }

  private void checkOptions(StructType schema, String location) {
    for (String column : columns) {
      if (schema.indexOf(column) < 0) {
        throw new IllegalArgumentException("table " + location + " has no column '" + column + "'; its columns are " + schema.fieldNames());
      }
    }
    if (limit != null && limit < 0) {
      throw new IllegalArgumentException("--limit must be >= 0, found " + limit);
    }
  }

  private void print(PrintWriter out, StructType schema, Iterator<Row> rows) throws IOException {
    Format effective = json ? Format.JSON : format;
    if (effective == Format.CSV) {
      List<String> header = new ArrayList<>();
      for (StructField field : schema.fields()) {
        header.add(RowFormat.csvField(field.name()));
      }
      out.println(String.join(",", header));
    }
    long printed = 0;
    while ((limit == null || printed < limit) && rows.hasNext()) {
      Row row = rows.next();
      if (effective == Format.JSON) {
        out.println(JSON.writeValueAsString(RowFormat.toJson(schema, row)));
      } else {
        List<String> fields = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
          fields.add(RowFormat.csvField(RowFormat.text(schema.field(i).type(), row.get(i))));
        }
        out.println(String.join(",", fields));
      }
      printed++;
    }
  }
}
