package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.storage.Storages;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.FatalIngestException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTSessionCatalog;

/**
 * The Iceberg catalog of a connector, from its {@code iceberg.catalog.*} properties as Iceberg's own
 * Kafka sink takes them: {@code type} (default {@code hadoop}) or {@code catalog-impl}, {@code uri},
 * {@code warehouse} (default {@code table.root}), and whatever else the catalog reads.
 *
 * <p>A warehouse on a Hadoop file system (local disk, HDFS) is reached with Iceberg's Hadoop file
 * IO, configured by the connector's {@code hadoop.*} options. A warehouse anywhere else (S3, Azure)
 * is reached with {@link StorageFileIO}, the connector's own storage with its own options, handed to
 * the JDBC and REST catalogs as their file IO builder, so no credential travels through catalog
 * properties; {@code io-impl} names another file IO instead. The Hive Metastore catalog builds its
 * file IO itself, from {@code io-impl} only (Iceberg's {@code HiveCatalog} takes none from outside),
 * so on an object store it needs {@code io-impl}.
 */
final class IcebergCatalogs {
  private IcebergCatalogs() {}

  /**
   * The catalog of the connector's {@code iceberg.catalog.*} properties; {@code storageIo}, which the
   * caller owns and closes, is its tables' file IO when the warehouse is on an object store.
   *
   * @throws FatalIngestException the properties cannot make a catalog (an unknown type, an
   *     unreachable server), name the Hadoop catalog for an object store, whose rename is not atomic,
   *     or a catalog that takes no file IO builder for an object store without {@code io-impl}
   */
  static Catalog open(IngestOptions options, StorageFileIO storageIo) {
    Map<String, String> properties = new HashMap<>(options.iceberg().catalogProperties());
    properties.putIfAbsent(CatalogProperties.WAREHOUSE_LOCATION, options.tableRoot());
    if (!properties.containsKey(CatalogProperties.CATALOG_IMPL)) {
      properties.putIfAbsent(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP);
    }
    String type = properties.get(CatalogUtil.ICEBERG_CATALOG_TYPE);
    String warehouse = properties.get(CatalogProperties.WAREHOUSE_LOCATION);
    boolean onHadoop = Storages.onHadoopFileSystem(warehouse);
    if (CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP.equals(type) && !onHadoop) {
      throw new FatalIngestException("iceberg.catalog.type=hadoop commits by renaming a file, which is not atomic on S3, Azure"
          + " or other object stores (" + warehouse + "): use iceberg.catalog.type=rest or jdbc", null);
    }
    Configuration hadoopConf = new Configuration();
    options.storage().hadoop().forEach(hadoopConf::set);
    try {
      if (onHadoop || properties.containsKey(CatalogProperties.FILE_IO_IMPL)) {
        return CatalogUtil.buildIcebergCatalog(options.iceberg().catalogName(), properties, hadoopConf);
      }
      Catalog catalog = withStorage(type, warehouse, storageIo);
      CatalogUtil.configureHadoopConf(catalog, hadoopConf);
      catalog.initialize(options.iceberg().catalogName(), properties);
      return catalog;
    } catch (RuntimeException e) {
      throw new FatalIngestException("cannot open the Iceberg catalog (iceberg.catalog.type=" + type
          + ", uri=" + properties.get(CatalogProperties.URI) + "): " + e.getMessage(), e);
    }
  }

  /** A catalog of {@code type} whose tables' files go through {@code io}, which it closes with itself. */
  private static Catalog withStorage(String type, String warehouse, FileIO io) {
    if (CatalogUtil.ICEBERG_CATALOG_TYPE_JDBC.equals(type)) {
      return new JdbcCatalog(properties -> io, null, true);
    }
    if (CatalogUtil.ICEBERG_CATALOG_TYPE_REST.equals(type)) {
      return new RESTCatalog() {
        /** Every table of the catalog reaches its files through {@code io}, whatever file IO the server suggests. */
        @Override
        protected RESTSessionCatalog newSessionCatalog(Function<Map<String, String>, RESTClient> clientBuilder) {
          return new RESTSessionCatalog(clientBuilder, (context, properties) -> io);
        }
      };
    }
    throw new FatalIngestException("iceberg.catalog.type=" + type + " reaches the warehouse " + warehouse + " only with"
        + " a file IO it builds itself: set iceberg.catalog.io-impl and its options (the connector's storage options"
        + " serve the jdbc and rest catalogs only)", null);
  }
}
