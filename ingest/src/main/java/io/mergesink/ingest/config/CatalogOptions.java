package io.mergesink.ingest.config;

import io.mergesink.ingest.options.CatalogType;
import io.mergesink.ingest.options.NamedOption;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * Where Delta tables are registered by name after the commits that create them or change their
 * schema or partitioning ({@code catalog.*}; off by default).
 *
 * @param type the kind of catalog ({@code catalog.type})
 * @param uri the catalog's address ({@code catalog.uri}, {@code thrift://host:port} for a Hive Metastore); null for none
 * @param database the database tables are registered in ({@code catalog.database})
 * @param timeout the longest one catalog request may take ({@code catalog.timeout.ms})
 */
public record CatalogOptions(CatalogType type, URI uri, String database, Duration timeout) {
  public static final String GROUP = "Catalog";
  public static final String TYPE = "catalog.type";
  public static final String URI_OPTION = "catalog.uri";
  public static final String DATABASE = "catalog.database";
  public static final String TIMEOUT_MS = "catalog.timeout.ms";
  public static final String DATABASE_DEFAULT = "default";
  public static final Duration TIMEOUT_DEFAULT = Duration.ofSeconds(10);
  private static final String THRIFT = "thrift";

  public CatalogOptions {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(timeout, "timeout");
    if (type == CatalogType.HIVE && (uri == null || !THRIFT.equals(uri.getScheme()) || uri.getHost() == null
        || uri.getPort() < 0)) {
      throw new IllegalArgumentException(URI_OPTION + " must be the Hive Metastore's thrift://host:port with catalog.type=hive,"
          + " got " + uri);
    }
    if (database.isBlank()) {
      throw new IllegalArgumentException(DATABASE + " is empty");
    }
  }

  /** No catalog. */
  public static CatalogOptions none() {
    return new CatalogOptions(CatalogType.NONE, null, DATABASE_DEFAULT, TIMEOUT_DEFAULT);
  }

  /** A Hive Metastore at {@code uri}, tables in database {@value #DATABASE_DEFAULT}. */
  public static CatalogOptions hive(URI uri) {
    return new CatalogOptions(CatalogType.HIVE, uri, DATABASE_DEFAULT, TIMEOUT_DEFAULT);
  }

  public CatalogOptions withDatabase(String value) {
    return new CatalogOptions(type, uri, value, timeout);
  }

  static void define(ConfigDef def) {
    ConfigGroup catalog = new ConfigGroup(def, GROUP);
    catalog.option(TYPE, Type.STRING).defaultValue(CatalogType.NONE.configName()).oneOf(CatalogType.class)
        .importance(Importance.MEDIUM).displayName("Catalog")
        .doc("Where Delta tables are registered by name, so that engines find them without their path: none, or hive "
            + "(a Hive Metastore's Thrift API; Glue's Hive-compatible endpoint too): an external table with provider "
            + "delta, the table's location and schema, as Spark's Delta catalog registers one. A table is registered "
            + "after the commit that creates it and updated after commits that change its schema or partitioning; "
            + "an entry of another table of the same name is left as it is. A catalog that is down never fails a "
            + "commit: the registration is logged and tried again after the table's next commit. Delta tables only "
            + "(Iceberg tables live in their own catalog, iceberg.catalog.*).")
        .define();
    catalog.option(URI_OPTION, Type.STRING).defaultValue("").importance(Importance.MEDIUM).width(Width.LONG)
        .displayName("Catalog URI")
        .doc("The catalog's address, with catalog.type=hive the metastore's thrift://host:port, e.g. "
            + "thrift://metastore:9083 (plain Thrift; Kerberos/SASL is not supported).")
        .define();
    catalog.option(DATABASE, Type.STRING).defaultValue(DATABASE_DEFAULT).importance(Importance.MEDIUM)
        .displayName("Catalog database")
        .doc("The database (schema) tables are registered in; it must exist. A table's name in it is its name under "
            + "table.root in lower case, every character other than a letter, digit or underscore replaced by an "
            + "underscore (public/orders: public_orders).")
        .define();
    catalog.option(TIMEOUT_MS, Type.LONG).defaultValue(TIMEOUT_DEFAULT.toMillis()).validator(Range.between(100, 600_000))
        .importance(Importance.LOW).displayName("Catalog timeout (ms)")
        .doc("Longest time to connect to the catalog or wait for one answer, in milliseconds.")
        .define();
  }

  /**
   * The catalog options of {@code config}.
   *
   * @throws ConfigException the URI is not what the catalog type takes
   */
  static CatalogOptions of(AbstractConfig config) {
    CatalogType type = NamedOption.parse(CatalogType.class, TYPE, config.getString(TYPE));
    String uri = config.getString(URI_OPTION).trim();
    try {
      return new CatalogOptions(type, uri.isEmpty() ? null : URI.create(uri), config.getString(DATABASE).trim(),
          Duration.ofMillis(config.getLong(TIMEOUT_MS)));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(URI_OPTION, uri, e.getMessage());
    }
  }
}
