package io.mergesink.cli;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.config.IcebergOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.PaimonOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.cut.CutPublisher;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.TableFormats;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mergesink cut ROOT [--at TIME]}: the newest consistent cut across the tables under ROOT at or
 * before a source time (docs/transactions.md, "Consistent cuts"), read from the cut table
 * {@value CutPublisher#TABLE}, with each table's time-travel statements for Spark and Trino (and Flink
 * for Paimon).
 */
@Command(name = "cut", description = "Print, for the newest consistent cut across the tables under ROOT at or before a source time,"
    + " each table's version and the statements that read it there (Spark, Trino).")
final class CutCommand implements Callable<Integer> {
  private static final List<String> COLUMNS = List.of(CutPublisher.CUT, CutPublisher.TABLE_NAME, CutPublisher.SOURCE_POSITION,
      CutPublisher.SOURCE_TS_MS, CutPublisher.VERSION);

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ROOT", description = "The connector's table.root (a path or URI).")
  String root;

  @Option(names = "--at", paramLabel = "TIME", description = "Source time: an ISO-8601 instant (2026-12-06T13:00:00Z) or epoch"
      + " milliseconds; default: the newest cut.")
  String at;

  @Option(names = "--table-format", paramLabel = "FORMAT", description = "delta, iceberg or paimon, the connector's table.format"
      + " (default: delta when ROOT/" + CutPublisher.TABLE + "/_delta_log exists, paimon when ROOT/<namespace>.db/"
      + CutPublisher.TABLE + "/schema does, else iceberg).")
  TableFormatName tableFormat;

  @Option(names = "--catalog", paramLabel = "KEY=VALUE", description = "An Iceberg catalog property (repeatable), the connector's"
      + " iceberg.catalog.* without the prefix.")
  Map<String, String> catalog = Map.of();

  @Option(names = "--namespace", paramLabel = "NAME", defaultValue = "default",
      description = "The Iceberg namespace or Paimon database of the tables (default ${DEFAULT-VALUE}).")
  String namespace;

  @Option(names = "--json", description = "Print JSON for scripts instead of text.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    TableFormatName format = tableFormat != null ? tableFormat
        : Files.isDirectory(Path.of(root).resolve(CutPublisher.TABLE).resolve("_delta_log")) ? TableFormatName.DELTA
        : Files.isDirectory(Path.of(root).resolve(namespace + ".db").resolve(CutPublisher.TABLE).resolve("schema")) ? TableFormatName.PAIMON
        : TableFormatName.ICEBERG;
    Map<String, Object> cut = newestCut(format);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      TableCommand.JSON.writerWithDefaultPrettyPrinter().writeValue(out, cut);
      out.println();
      return 0;
    }
    out.printf("cut at transaction topic offset %s, source position %s, source time %s%n", cut.get("cutOffset"),
        cut.get("sourcePosition"), cut.get("sourceTime"));
    for (Object table : (List<?>) cut.get("tables")) {
      Map<?, ?> entry = (Map<?, ?>) table;
      out.printf("%s version %s%n", entry.get("table"), entry.get("version"));
      ((Map<?, ?>) entry.get("statements")).forEach((engine, statement) -> out.printf("  %-6s %s%n", engine, statement));
    }
    return 0;
  }

  /** The newest cut at or before {@link #at}, with each table's version and statements. */
  private Map<String, Object> newestCut(TableFormatName format) throws IOException {
    IngestOptions options = IngestOptions.builder(root, "mergesink-cli").tableFormat(format)
        .iceberg(new IcebergOptions(IcebergOptions.defaults().catalogName(), catalog, namespace))
        .paimon(new PaimonOptions(Map.of(), namespace, PaimonOptions.defaults().bucket())).build();
    long until = at == null ? Long.MAX_VALUE : parseTime(at);
    TreeMap<Long, List<Row>> cuts = new TreeMap<>();
    try (TableFormat tables = TableFormats.of(options)) {
      FormatTable table = tables.open(CutPublisher.TABLE, List.of(), List.of()).orElseThrow(() -> new IllegalArgumentException(
          "no cut table " + CutPublisher.TABLE + " under " + root + " in format " + format.configName()
              + " (cuts are published with cut.interval.ms, by the task given the transaction topic)"));
      try (RowScan rows = table.scan(COLUMNS, Map.of())) {
        rows.forEachRemaining(row -> {
          if (row.get(3) != null && (Long) row.get(3) <= until) {
            cuts.computeIfAbsent((Long) row.get(0), offset -> new ArrayList<>()).add(row);
          }
        });
      }
    }
    if (cuts.isEmpty()) {
      throw new IllegalArgumentException("no cut under " + root + (at == null ? "" : " at or before " + at));
    }
    List<Row> newest = cuts.lastEntry().getValue();
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("cutOffset", newest.get(0).get(0));
    result.put("sourcePosition", newest.get(0).get(2));
    result.put("sourceTime", Instant.ofEpochMilli((Long) newest.get(0).get(3)).toString());
    List<Map<String, Object>> tables = new ArrayList<>();
    for (Row row : newest.stream().sorted((a, b) -> a.get(1).toString().compareTo(b.get(1).toString())).toList()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("table", row.get(1).toString());
      entry.put("version", row.get(4));
      entry.put("statements", statements(format, row.get(1).toString(), (Long) row.get(4)));
      tables.add(entry);
    }
    result.put("tables", tables);
    return result;
  }

  /** Engine → the statement that reads {@code table} at {@code version}. */
  private Map<String, String> statements(TableFormatName format, String table, long version) {
    Map<String, String> statements = new LinkedHashMap<>();
    String qualified = table.contains(".") ? table : namespace + "." + table;
    switch (format) {
      case DELTA -> statements.put("spark", "SELECT * FROM delta.`" + root.replaceAll("/+$", "") + "/" + table + "` VERSION AS OF "
          + version);
      case ICEBERG -> {
        statements.put("spark", "SELECT * FROM " + qualified + " VERSION AS OF " + version);
        statements.put("trino", "SELECT * FROM " + qualified + " FOR VERSION AS OF " + version);
      }
      case PAIMON -> {
        statements.put("spark", "SELECT * FROM " + qualified + " VERSION AS OF " + version);
        statements.put("trino", "SELECT * FROM " + qualified + " FOR VERSION AS OF " + version);
        statements.put("flink", "SELECT * FROM " + qualified + " /*+ OPTIONS('scan.snapshot-id' = '" + version + "') */");
      }
    }
    return statements;
  }

  private static long parseTime(String time) {
    try {
      return Long.parseLong(time);
    } catch (NumberFormatException notMillis) {
      try {
        return Instant.parse(time).toEpochMilli();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("--at " + time + ": expected an ISO-8601 instant (2026-12-06T13:00:00Z) or epoch milliseconds");
      }
    }
  }
}
