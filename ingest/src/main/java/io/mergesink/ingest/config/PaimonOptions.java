package io.mergesink.ingest.config;

import java.util.Map;
import java.util.Objects;

/**
 * Where Paimon tables are and how new ones are bucketed ({@code table.format=paimon}).
 *
 * @param catalogOptions the {@code paimon.catalog.*} options without the prefix, passed to the catalog
 * @param defaultDatabase the database of tables whose name has no directory ({@code paimon.tables.default-database})
 * @param bucket the fixed number of buckets of new primary-key tables ({@code paimon.bucket})
 */
public record PaimonOptions(Map<String, String> catalogOptions, String defaultDatabase, int bucket) {
  public PaimonOptions {
    catalogOptions = Map.copyOf(catalogOptions);
    Objects.requireNonNull(defaultDatabase, "defaultDatabase");
    if (bucket < 1 || bucket > TableOptions.PAIMON_BUCKET_MAX) {
      throw new IllegalArgumentException(TableOptions.PAIMON_BUCKET + " must be in [1, " + TableOptions.PAIMON_BUCKET_MAX + "], found "
          + bucket);
    }
  }

  /** A filesystem catalog on {@code table.root}, tables without a directory in database {@code default}, 4 buckets. */
  public static PaimonOptions defaults() {
    return new PaimonOptions(Map.of(), TableOptions.PAIMON_DATABASE_DEFAULT, TableOptions.PAIMON_BUCKET_DEFAULT);
  }
}
