package io.mergesink.cli;

import io.mergesink.core.storage.StorageOptions;
import io.mergesink.ingest.config.IcebergOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.iceberg.IcebergFormat;
import java.nio.file.Paths;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;

/**
 * Where the CLI finds an Iceberg table, and the table opened there through the engine's Iceberg
 * format, the catalog the sink writes it with: a path ({@code <warehouse>/<namespace>/<table>}, a
 * Hadoop catalog's table), or a {@code namespace.table} identifier in the catalog of the
 * {@code --catalog} properties.
 */
final class IcebergTableRef {
  /** The app id the engine's options require; the CLI records no positions. */
  private static final String APP_ID = "mergesink-cli";
  private static final Pattern URI_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");

  private final String table;
  private final Map<String, String> catalog;
  private final String catalogName;
  private final Map<String, String> hadoop;

  /**
   * @param table the TABLE parameter: a path without {@code catalog}, else {@code namespace.table}
   * @param catalog the {@code iceberg.catalog.*} properties without the prefix; empty for a path
   */
  IcebergTableRef(String table, Map<String, String> catalog, String catalogName, Map<String, String> hadoop) {
    this.table = table;
    this.catalog = Map.copyOf(catalog);
    this.catalogName = catalogName;
    this.hadoop = Map.copyOf(hadoop);
  }

  /**
   * Opens the table; the caller closes it.
   *
   * @param options the engine's options for the format (compaction settings), on top of where the table is
   * @throws IllegalArgumentException no Iceberg table there, or the reference cannot name one
   * @throws io.mergesink.ingest.errors.FatalIngestException the catalog cannot be opened
   * @throws IOException the table's metadata cannot be read
   */
  Opened open(UnaryOperator<IngestOptions.Builder> options) throws IOException {
    Map<String, String> properties = new HashMap<>(catalog);
    String name;
    String namespace = IcebergOptions.defaults().defaultNamespace();
    if (catalog.isEmpty()) {
      Path location = new Path(URI_SCHEME.matcher(table).matches() ? table : Paths.get(table).toAbsolutePath().normalize().toString());
      Path warehouse = location.getParent() == null ? null : location.getParent().getParent();
      if (warehouse == null) {
        throw new IllegalArgumentException("an Iceberg table of a Hadoop catalog is at <warehouse>/<namespace>/<table>, found " + table);
      }
      properties.put(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP);
      properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse.toString());
      namespace = location.getParent().getName();
      name = location.getName();
    } else {
      if (!properties.containsKey(CatalogProperties.WAREHOUSE_LOCATION)) {
        throw new IllegalArgumentException("--catalog warehouse=... is required: the connector's iceberg.catalog.warehouse, or its"
            + " table.root when it sets none");
      }
      name = table.replace('.', '/');
    }
    IngestOptions.Builder builder = IngestOptions.builder(properties.get(CatalogProperties.WAREHOUSE_LOCATION), APP_ID)
        .tableFormat(TableFormatName.ICEBERG).storage(StorageOptions.hadoop(hadoop))
        .iceberg(new IcebergOptions(catalogName, properties, namespace));
    IcebergFormat format = new IcebergFormat(options.apply(builder).build());
    try {
      Table iceberg = format.table(name).orElseThrow(() -> new IllegalArgumentException("no Iceberg table " + where()));
      FormatTable formatTable = format.open(name, List.of(), List.of())
          .orElseThrow(() -> new IllegalArgumentException("no Iceberg table " + where()));
      return new Opened(format, formatTable, iceberg);
    } catch (RuntimeException | IOException e) {
      format.close();
      throw e;
    }
  }

  private String where() {
    return catalog.isEmpty() ? "at " + table : table + " in catalog " + catalogName + " (" + catalog.getOrDefault(CatalogProperties.URI,
        catalog.get(CatalogProperties.WAREHOUSE_LOCATION)) + ")";
  }

  /**
   * An open Iceberg table: the engine's view of it (positions, scans, compaction) and Iceberg's own
   * (snapshots, files, specs), both on the catalog the format owns and {@link #close} releases.
   */
  record Opened(IcebergFormat format, FormatTable table, Table iceberg) implements AutoCloseable {
    @Override
    public void close() {
      format.close();
    }
  }
}
