package io.mergesink.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A command on one table: the table (a path, or with {@code --catalog} an Iceberg identifier), its
 * format, {@code --json}, and Hadoop settings ({@code --hadoop fs.s3a.endpoint=...}). Subclasses
 * compute a result and print it as text or JSON, for a Delta table in {@link #run}, for an Iceberg
 * table in {@link #runIceberg} and for a Paimon table in {@link #runPaimon}.
 */
abstract class TableCommand implements Callable<Integer> {
  static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  private static final String DELTA_LOG = "_delta_log";
  private static final String ICEBERG_METADATA = "metadata";
  /** The directory of a Paimon table's schemas, there from its creation on. */
  private static final String PAIMON_SCHEMA = "schema";

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "Path or URI of the table (e.g. /data/orders, s3a://bucket/orders);"
      + " with --catalog, the Iceberg table's namespace.table.")
  String tablePath;

  @Option(names = "--table-format", paramLabel = "FORMAT", description = "delta, iceberg or paimon (default: iceberg with --catalog; else a"
      + " directory with metadata/ and no _delta_log/ is an Iceberg table of a Hadoop catalog, one with schema/ and no _delta_log/ a"
      + " Paimon table of a filesystem catalog, any other a Delta table).")
  TableFormatName tableFormat;

  @Option(names = "--catalog", paramLabel = "KEY=VALUE", description = "An Iceberg catalog property (repeatable), the connector's"
      + " iceberg.catalog.* without the prefix: type=jdbc|rest|hive|hadoop, uri=..., warehouse=... (required), jdbc.user=...")
  Map<String, String> catalog = Map.of();

  @Option(names = "--catalog-name", paramLabel = "NAME", defaultValue = "iceberg",
      description = "The Iceberg catalog's name, the connector's iceberg.catalog (default ${DEFAULT-VALUE}).")
  String catalogName;

  @Option(names = "--json", description = "Print JSON for scripts instead of text.")
  boolean json;

  @Option(names = "--hadoop", paramLabel = "KEY=VALUE", description = "A Hadoop file system setting (repeatable).")
  Map<String, String> hadoop = Map.of();

  private Storage storage;

  @Override
  public final Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    try {
      switch (format()) {
        case ICEBERG -> runIceberg(out);
        case PAIMON -> runPaimon(out);
        case DELTA -> run(out);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return 0;
  }

  /** The command on the Delta table at {@link #tablePath}. */
  abstract void run(PrintWriter out) throws IOException;

  /** The command on the Iceberg table {@link #tablePath}, opened with {@link #openIceberg}; by default refused. */
  void runIceberg(PrintWriter out) throws IOException {
    throw new IllegalArgumentException("mergesink " + spec.name() + " works on Delta tables; " + tablePath + " is an Iceberg table"
        + icebergAlternative());
  }

  /** The command on the Paimon table at {@link #tablePath}, opened with {@link #openPaimon}; by default refused. */
  void runPaimon(PrintWriter out) throws IOException {
    throw new IllegalArgumentException("mergesink " + spec.name() + " does not work on Paimon tables; " + tablePath + " is a Paimon"
        + " table, which Paimon's writers compact and whose snapshots they expire");
  }

  /** Opens the Paimon table; the caller closes it. */
  PaimonTableRef.Opened openPaimon() {
    return new PaimonTableRef(tablePath, hadoop).open();
  }

  /** What to use on an Iceberg table instead of a Delta-only command, as the end of its refusal. */
  String icebergAlternative() {
    return "";
  }

  /**
   * Opens the Iceberg table; the caller closes it.
   *
   * @param options the engine's options the command needs beyond where the table is
   */
  IcebergTableRef.Opened openIceberg(UnaryOperator<IngestOptions.Builder> options) throws IOException {
    return new IcebergTableRef(tablePath, catalog, catalogName, hadoop).open(options);
  }

  IcebergTableRef.Opened openIceberg() throws IOException {
    return openIceberg(builder -> builder);
  }

  /**
   * The format of the table: {@code --table-format}, else Iceberg with {@code --catalog}, else
   * Iceberg for a directory with {@code metadata/} and no {@code _delta_log/}, Paimon for one with
   * {@code schema/} and no {@code _delta_log/}, else Delta.
   */
  private TableFormatName format() throws IOException {
    if (tableFormat != null) {
      if (tableFormat != TableFormatName.ICEBERG && !catalog.isEmpty()) {
        throw new IllegalArgumentException("--catalog names an Iceberg catalog; a " + (tableFormat == TableFormatName.DELTA ? "Delta" : "Paimon")
            + " table is opened by its path alone");
      }
      return tableFormat;
    }
    if (!catalog.isEmpty()) {
      return TableFormatName.ICEBERG;
    }
    boolean delta = false;
    boolean iceberg = false;
    boolean paimon = false;
    for (String directory : storage().listDirectories(tablePath)) {
      String name = new Path(directory).getName();
      delta |= name.equals(DELTA_LOG);
      iceberg |= name.equals(ICEBERG_METADATA);
      paimon |= name.equals(PAIMON_SCHEMA);
    }
    if (delta) {
      return TableFormatName.DELTA;
    }
    return iceberg ? TableFormatName.ICEBERG : paimon ? TableFormatName.PAIMON : TableFormatName.DELTA;
  }

  Storage storage() {
    if (storage == null) {
      storage = Storages.forRoot(tablePath, hadoop);
    }
    return storage;
  }

  DeltaTable table() {
    return DeltaTable.forPath(storage(), tablePath);
  }

  Snapshot snapshot() throws IOException {
    return table().snapshot();
  }

  void printJson(PrintWriter out, Object value) throws IOException {
    out.println(JSON.writeValueAsString(value));
  }
}
