package io.mergesink.ingest.format.iceberg;

import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.FatalIngestException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * The Iceberg catalog of a connector, from its {@code iceberg.catalog.*} properties as Iceberg's own
 * Kafka sink takes them: {@code type} (default {@code hadoop}) or {@code catalog-impl}, {@code uri},
 * {@code warehouse} (default {@code table.root}), and whatever else the catalog reads.
 */
final class IcebergCatalogs {
  private IcebergCatalogs() {}

  /**
   * @throws FatalIngestException the properties cannot make a catalog (an unknown type, an
   *     unreachable server), or name the Hadoop catalog for an object store, whose rename is not atomic
   */
  static Catalog open(IngestOptions options) {
    Map<String, String> properties = new HashMap<>(options.iceberg().catalogProperties());
    properties.putIfAbsent(CatalogProperties.WAREHOUSE_LOCATION, options.tableRoot());
    if (!properties.containsKey(CatalogProperties.CATALOG_IMPL)) {
      properties.putIfAbsent(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP);
    }
    boolean hadoop = CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP.equals(properties.get(CatalogUtil.ICEBERG_CATALOG_TYPE));
    String warehouse = properties.get(CatalogProperties.WAREHOUSE_LOCATION).toLowerCase(Locale.ROOT);
    if (hadoop && (warehouse.startsWith("s3:") || warehouse.startsWith("s3a:") || warehouse.startsWith("s3n:"))) {
      throw new FatalIngestException("iceberg.catalog.type=hadoop commits by renaming a file, which is not atomic on S3 ("
          + properties.get(CatalogProperties.WAREHOUSE_LOCATION) + "): use iceberg.catalog.type=rest or jdbc", null);
    }
    Configuration hadoopConf = new Configuration();
    options.storage().hadoop().forEach(hadoopConf::set);
    try {
      return CatalogUtil.buildIcebergCatalog(options.iceberg().catalogName(), properties, hadoopConf);
    } catch (RuntimeException e) {
      throw new FatalIngestException("cannot open the Iceberg catalog (iceberg.catalog.type=" + properties.get(CatalogUtil.ICEBERG_CATALOG_TYPE)
          + ", uri=" + properties.get(CatalogProperties.URI) + "): " + e.getMessage(), e);
    }
  }
}
