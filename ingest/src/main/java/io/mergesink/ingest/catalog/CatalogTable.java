package io.mergesink.ingest.catalog;

import io.mergesink.core.types.StructType;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A Delta table as a catalog registers it.
 *
 * @param table the table's name under {@code table.root} ({@code public/orders})
 * @param location where it is, a URI ({@code file:/...}, {@code s3://...}, {@code abfss://...})
 * @param schema its schema
 * @param partitionColumns its partition columns, in order
 */
public record CatalogTable(String table, String location, StructType schema, List<String> partitionColumns) {
  public CatalogTable {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(schema, "schema");
    partitionColumns = List.copyOf(partitionColumns);
  }

  /** A table at {@code path}: a URI, or a local path (as a {@code file:} URI). */
  public static CatalogTable at(String table, String path, StructType schema, List<String> partitionColumns) {
    String location = path.startsWith("/") ? "file:" + path : path;
    return new CatalogTable(table, location, schema, partitionColumns);
  }

  /** The table's name in a catalog: lower case, every character but a letter, digit or underscore an underscore. */
  public String catalogName() {
    return table.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
  }
}
