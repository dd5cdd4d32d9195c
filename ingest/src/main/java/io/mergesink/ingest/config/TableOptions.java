package io.mergesink.ingest.config;

import io.mergesink.ingest.route.TableNameTemplate;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Where tables are, which table a record goes to, in which format, and the name of the sink's positions in them. */
public final class TableOptions {
  public static final String GROUP = "Tables";
  public static final String TABLE_ROOT = "table.root";
  public static final String TABLE_NAME_FORMAT = "table.name.format";
  public static final String TABLE_NAME_FORMAT_DEFAULT = "${topic}";
  public static final String TABLE_FORMAT = "table.format";
  public static final TableFormatName TABLE_FORMAT_DEFAULT = TableFormatName.DELTA;
  public static final String TXN_APP_ID = "txn.app.id";
  public static final String ICEBERG_CATALOG_NAME = "iceberg.catalog";
  public static final String ICEBERG_CATALOG_NAME_DEFAULT = "iceberg";
  public static final String ICEBERG_DEFAULT_NAMESPACE = "iceberg.tables.default-namespace";
  public static final String ICEBERG_DEFAULT_NAMESPACE_DEFAULT = "default";
  public static final String PAIMON_DATABASE = "paimon.tables.default-database";
  public static final String PAIMON_DATABASE_DEFAULT = "default";
  public static final String PAIMON_BUCKET = "paimon.bucket";
  public static final int PAIMON_BUCKET_DEFAULT = 4;
  /** Paimon's limit on the buckets of a table ({@code bucket}). */
  public static final int PAIMON_BUCKET_MAX = 1024;

  private TableOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup tables = new ConfigGroup(def, GROUP);
    tables.option(TABLE_ROOT, Type.STRING).validator(new ConfigDef.NonEmptyString()).importance(Importance.HIGH)
        .width(Width.LONG).displayName("Table root")
        .doc("Directory under which every table lives: a local or POSIX path (/data/lake, file:/data/lake), "
            + "hdfs://namenode/lake, s3://bucket/lake (s3a:// is the same), or Azure Blob Storage / ADLS Gen2 as "
            + "abfss://container@account.dfs.core.windows.net/lake or wasbs://container@account.blob.core.windows.net/lake. "
            + "Each table is the directory " + TABLE_ROOT + "/<" + TABLE_NAME_FORMAT + ">. Other schemes (gs, and "
            + "abfs and wasb, which mean plain HTTP, ...) are refused: MergeSink commits need an atomic put-if-absent, "
            + "proven only for these. Local paths must be writable or creatable by the Connect worker; S3 is configured "
            + "in the " + S3StoreOptions.GROUP + " group, Azure in the " + AzureStoreOptions.GROUP + " group, HDFS with "
            + PassThroughOptions.HADOOP_PREFIX + "* properties.")
        .define();
    tables.option(TABLE_NAME_FORMAT, Type.STRING).defaultValue(TABLE_NAME_FORMAT_DEFAULT)
        .validator(new TableNameFormatValidator()).importance(Importance.MEDIUM).width(Width.LONG)
        .displayName("Table name format")
        .doc("Path of a record's table relative to " + TABLE_ROOT + ". Placeholders: ${topic} (the record's topic "
            + "after transforms), ${source.db}, ${source.schema}, ${source.table} (from the Debezium source block). "
            + "Literal text may use A-Z a-z 0-9 _ . - and / to nest directories, e.g. "
            + "${source.db}/${source.table}. Substituted values are sanitised: characters outside A-Z a-z 0-9 _ . - "
            + "become _, a leading . becomes _, and values longer than 128 characters are cut and suffixed with a "
            + "hash, so a table never escapes " + TABLE_ROOT + ".")
        .define();
    tables.option(TXN_APP_ID, Type.STRING).defaultValue(null).importance(Importance.LOW)
        .displayName("Transaction app id")
        .doc("Prefix of the Delta txn app ids that record this connector's Kafka offsets in each table "
            + "(<txn.app.id>:<topic>:<partition>). Defaults to the connector name. Keep it when renaming a "
            + "connector so that it resumes from the offsets in its tables; two connectors writing one table "
            + "need different ids.")
        .define();
    tables.option(TABLE_FORMAT, Type.STRING).defaultValue(TABLE_FORMAT_DEFAULT.configName()).oneOf(TableFormatName.class)
        .importance(Importance.LOW).displayName("Table format")
        .doc("The table format of the tables this connector writes and creates under " + TABLE_ROOT + ". delta: "
            + "Delta Lake tables; iceberg: Apache Iceberg tables in the catalog of the "
            + PassThroughOptions.ICEBERG_CATALOG_PREFIX + "* properties (docs/table-formats.md, docs/iceberg.md); paimon: "
            + "Apache Paimon primary-key tables in a filesystem catalog on " + TABLE_ROOT + " (docs/paimon.md).")
        .define();
    tables.option(ICEBERG_CATALOG_NAME, Type.STRING).defaultValue(ICEBERG_CATALOG_NAME_DEFAULT)
        .validator(new ConfigDef.NonEmptyString()).importance(Importance.LOW).displayName("Iceberg catalog name")
        .doc("With " + TABLE_FORMAT + "=iceberg: the name of the catalog of the " + PassThroughOptions.ICEBERG_CATALOG_PREFIX
            + "* properties, as the engines that read the tables name it (a JDBC catalog keeps its tables under its name).")
        .define();
    tables.option(ICEBERG_DEFAULT_NAMESPACE, Type.STRING).defaultValue(ICEBERG_DEFAULT_NAMESPACE_DEFAULT)
        .validator(new ConfigDef.NonEmptyString()).importance(Importance.LOW).displayName("Iceberg default namespace")
        .doc("With " + TABLE_FORMAT + "=iceberg: the catalog namespace of tables whose name (" + TABLE_NAME_FORMAT
            + ") has no directory; a name a/b/t is table t in namespace a.b.")
        .define();
    tables.option(PAIMON_DATABASE, Type.STRING).defaultValue(PAIMON_DATABASE_DEFAULT)
        .validator(new ConfigDef.NonEmptyString()).importance(Importance.LOW).displayName("Paimon default database")
        .doc("With " + TABLE_FORMAT + "=paimon: the database of tables whose name (" + TABLE_NAME_FORMAT
            + ") has no directory; a name d/t is table t in database d (deeper names are refused: Paimon has one level).")
        .define();
    tables.option(PAIMON_BUCKET, Type.INT).defaultValue(PAIMON_BUCKET_DEFAULT).validator(ConfigDef.Range.between(1, PAIMON_BUCKET_MAX))
        .importance(Importance.LOW).displayName("Paimon buckets")
        .doc("With " + TABLE_FORMAT + "=paimon: the fixed number of buckets (Paimon's bucket option) of the primary-key "
            + "tables this connector creates, per partition. Each bucket is one LSM tree; Paimon suggests a bucket per 200 MB "
            + "to 1 GB of data. A table property table.properties.bucket overrides it; tables that exist keep theirs.")
        .define();
  }

  /** Validates {@code table.name.format} with {@link TableNameTemplate#parse}. */
  private static final class TableNameFormatValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value == null) {
        throw new ConfigException(name, null, "must be set, e.g. " + TABLE_NAME_FORMAT_DEFAULT);
      }
      try {
        TableNameTemplate.parse(value.toString());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "text with placeholders " + TableNameTemplate.placeholderNames();
    }
  }
}
