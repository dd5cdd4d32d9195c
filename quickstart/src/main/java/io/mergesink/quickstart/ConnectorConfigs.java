package io.mergesink.quickstart;

import io.mergesink.localpg.LocalPostgres;
import io.mergesink.quickstart.QuickstartOptions.TableFormat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connector configurations the demo registers: the repository's deploy files
 * ({@code config/debezium-postgres-source.json}, {@code config/mergesink-upsert.json} and the others
 * named below, copied into the jar at build time) with only the options that must point at the local setup replaced, so the
 * demo runs what users deploy.
 */
final class ConnectorConfigs {
  /** Name of the MergeSink connector; also the prefix of its Delta txn app ids. */
  static final String SINK_NAME = "mergesink";
  /** Name of the Debezium connector. */
  static final String SOURCE_NAME = "shop-postgres";
  /** Debezium's topic prefix: topics are {@code shop.<schema>.<table>}. */
  static final String TOPIC_PREFIX = "shop";
  /** How often the sink commits to its tables: short, so the demo shows the table grow. */
  static final String COMMIT_INTERVAL_MS = "1000";
  private static final String SOURCE_FILE = "config/debezium-postgres-source.json";
  private static final String SINK_FILE = "config/mergesink-upsert.json";
  private static final String S3_SINK_FILE = "config/mergesink-s3.json";
  private static final String AZURE_SINK_FILE = "config/mergesink-azure.json";
  private static final String ICEBERG_SINK_FILE = "config/mergesink-iceberg.json";
  private static final String PAIMON_SINK_FILE = "config/mergesink-paimon.json";

  private ConnectorConfigs() {}

  /** {@code config/debezium-postgres-source.json} pointed at {@code postgres}, with topic prefix {@value #TOPIC_PREFIX}. */
  static Map<String, String> debeziumSource(LocalPostgres postgres) {
    Map<String, String> config = load(SOURCE_FILE);
    config.putAll(postgres.debeziumConnectionConfig());
    config.put("topic.prefix", TOPIC_PREFIX);
    return config;
  }

  /**
   * {@code config/mergesink-upsert.json} (or {@code config/mergesink-s3.json} for an S3 location,
   * {@code config/mergesink-azure.json} for an Azure one, or
   * {@code config/mergesink-iceberg.json} for Iceberg tables in the demo's catalog,
   * {@code config/mergesink-paimon.json} for Paimon tables in a filesystem catalog on the table
   * root) with its tables
   * at {@code location}, reading the {@value #TOPIC_PREFIX} topics, committing every
   * {@value #COMMIT_INTERVAL_MS} ms.
   */
  static Map<String, String> mergeSink(TableLocation location, TableFormat format) {
    Map<String, String> config;
    if (format == TableFormat.ICEBERG) {
      config = load(ICEBERG_SINK_FILE);
      config.putAll(icebergCatalog(location));
    } else if (format == TableFormat.PAIMON) {
      config = load(PAIMON_SINK_FILE);
    } else {
      config = load(location.root().startsWith("s3://") ? S3_SINK_FILE
          : location.root().startsWith("abfss://") ? AZURE_SINK_FILE : SINK_FILE);
    }
    config.putAll(location.sinkOptions());
    // public/orders in every format: the Iceberg and Paimon deploy files route their tables to a namespace of their own
    config.put("table.name.format", ORDERS_TABLE_NAME_FORMAT);
    config.put("topics.regex", TOPIC_PREFIX + "\\.public\\..*");
    config.put("commit.interval.ms", COMMIT_INTERVAL_MS);
    return config;
  }

  /**
   * The demo's Iceberg catalog, with nothing to install: Iceberg's JDBC catalog on a SQLite file in
   * the table directory (the driver is on the demo's class path, where the sink runs), its tables
   * under the table root. The catalog's name stays the deploy file's.
   */
  private static Map<String, String> icebergCatalog(TableLocation location) {
    return Map.of(
        "iceberg.catalog.type", "jdbc",
        "iceberg.catalog.uri", "jdbc:sqlite:" + location.root() + "/" + QuickstartOptions.ICEBERG_CATALOG_FILE,
        "iceberg.catalog.warehouse", location.root());
  }

  /** The path, relative to the table root, the sink config routes {@code public.orders} to ({@value #ORDERS_TABLE_NAME_FORMAT}). */
  static final String ORDERS_TABLE = "public/orders";
  /**
   * The demo's {@code table.name.format}: an Iceberg table {@code <schema>/<table>} is table {@code <table>} in namespace
   * {@code <schema>}, a Paimon table in database {@code <schema>}.
   */
  private static final String ORDERS_TABLE_NAME_FORMAT = "${source.schema}/${source.table}";

  private static Map<String, String> load(String resource) {
    Map<String, String> config = new LinkedHashMap<>();
    try (InputStream in = ConnectorConfigs.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource + " next to " + ConnectorConfigs.class.getName()
            + ": the build copies it from the repository's config/ directory");
      }
      JsonNode file = new ObjectMapper().readTree(in);
      file.fields().forEachRemaining(field -> config.put(field.getKey(), field.getValue().asText()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + resource, e);
    }
    return config;
  }
}
