package io.mergesink.ingest.config;

import java.util.Map;
import java.util.Objects;

/**
 * Where Iceberg tables are registered ({@code table.format=iceberg}).
 *
 * @param catalogName the name of the catalog ({@code iceberg.catalog})
 * @param catalogProperties the {@code iceberg.catalog.*} properties without the prefix, passed to the catalog
 * @param defaultNamespace the namespace of tables whose name has no directory ({@code iceberg.tables.default-namespace})
 */
public record IcebergOptions(String catalogName, Map<String, String> catalogProperties, String defaultNamespace) {
  public IcebergOptions {
    Objects.requireNonNull(catalogName, "catalogName");
    catalogProperties = Map.copyOf(catalogProperties);
    Objects.requireNonNull(defaultNamespace, "defaultNamespace");
  }

  /** A Hadoop catalog on {@code table.root}, tables without a directory in the {@code default} namespace. */
  public static IcebergOptions defaults() {
    return new IcebergOptions(TableOptions.ICEBERG_CATALOG_NAME_DEFAULT, Map.of(), TableOptions.ICEBERG_DEFAULT_NAMESPACE_DEFAULT);
  }
}
