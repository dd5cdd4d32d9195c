package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.FatalIngestException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Catalog;

/**
 * The Iceberg catalog of a connector, from its {@code iceberg.catalog.*} properties as Iceberg's own
 * Kafka sink takes them: {@code type} (default {@code hadoop}) or {@code catalog-impl}, {@code uri},
 * {@code warehouse} (default {@code table.root}), and whatever else the catalog reads. A warehouse on
 * S3 is reached with Iceberg's S3 file IO and the connector's S3 options, unless {@code io-impl}
 * names another file IO.
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
    if (hadoop && isS3(warehouse)) {
      throw new FatalIngestException("iceberg.catalog.type=hadoop commits by renaming a file, which is not atomic on S3 ("
          + properties.get(CatalogProperties.WAREHOUSE_LOCATION) + "): use iceberg.catalog.type=rest or jdbc", null);
    }
    if (isS3(warehouse) && !properties.containsKey(CatalogProperties.FILE_IO_IMPL)) {
      s3FileIo(options.storage().s3()).forEach(properties::putIfAbsent);
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

  private static boolean isS3(String location) {
    return location.startsWith("s3:") || location.startsWith("s3a:") || location.startsWith("s3n:");
  }

  /**
   * Iceberg's S3 file IO configured with the connector's own S3 options (region, endpoint, path
   * style, keys; without keys the AWS SDK's default credential chain), over the SDK's Apache HTTP
   * client, which the sink already ships.
   */
  private static Map<String, String> s3FileIo(S3Options s3) {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName());
    properties.put(HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_APACHE);
    s3.region().ifPresent(region -> properties.put(AwsClientProperties.CLIENT_REGION, region));
    if (s3.region().isEmpty() && s3.endpoint().isPresent()) {
      properties.put(AwsClientProperties.CLIENT_REGION, S3Options.DEFAULT_REGION);
    }
    s3.endpoint().ifPresent(endpoint -> properties.put(S3FileIOProperties.ENDPOINT, endpoint.toString()));
    properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, Boolean.toString(s3.pathStyle()));
    s3.credentials().ifPresent(keys -> {
      properties.put(S3FileIOProperties.ACCESS_KEY_ID, keys.accessKeyId());
      properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, keys.secretAccessKey());
    });
    return properties;
  }
}
