package io.mergesink.connect.config;

import io.mergesink.core.generatedcolumns.GenerationExpression;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.ingest.IngestOptions;
import io.mergesink.ingest.decode.LogicalTypes;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteImage;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.options.NamedOption;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.route.TableNameTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The connector's configuration (docs/configuration.md). {@code topics} / {@code topics.regex} and
 * {@code errors.*} are Connect's own and not defined here; {@link #errorTolerance()} reads
 * {@code errors.tolerance} from the originals.
 *
 * <p>Constructing a config validates every single option and throws {@link ConfigException};
 * cross-field checks are in {@link ConfigValidation}.
 */
public final class MergeSinkConfig extends AbstractConfig {
  public static final String GROUP_TABLES = "Tables";
  public static final String GROUP_WRITES = "Writes";
  public static final String GROUP_DECODING = "Decoding";
  public static final String GROUP_COMMITS = "Commits and buffering";
  public static final String GROUP_FILES = "Files and maintenance";
  public static final String GROUP_PASSTHROUGH = "Pass-through properties";

  public static final String TABLE_ROOT = "table.root";
  public static final String TABLE_NAME_FORMAT = "table.name.format";
  public static final String TABLE_NAME_FORMAT_DEFAULT = "${topic}";
  public static final String WRITE_MODE = "write.mode";
  public static final String APPEND_DELETE_IMAGE = "append.delete.image";
  public static final String APPEND_TOMBSTONES = "append.tombstones";
  public static final String MERGE_STRATEGY = "merge.strategy";
  public static final String PRIMARY_KEY_MODE = "primary.key.mode";
  public static final String PRIMARY_KEY_FIELDS = "primary.key.fields";
  public static final String DELETE_ENABLED = "delete.enabled";
  public static final String TRUNCATE_ENABLED = "truncate.enabled";
  public static final String UPSERT_ORDER_BY = "upsert.order.by";
  public static final String UPSERT_ORDER_DELETED_KEYS_MAX = "upsert.order.deleted.keys.max";
  public static final String DELETE_MODE = "delete.mode";
  public static final String SCHEMA_EVOLUTION = "schema.evolution";
  public static final String PARTITION_FIELDS = "partition.fields";
  public static final String UNAVAILABLE_VALUE_PLACEHOLDER = "unavailable.value.placeholder";
  public static final String COMMIT_INTERVAL_MS = "commit.interval.ms";
  public static final long COMMIT_INTERVAL_MS_DEFAULT = 30_000L;
  public static final String BUFFER_MAX_RECORDS = "buffer.max.records";
  public static final long BUFFER_MAX_RECORDS_DEFAULT = 100_000L;
  public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";
  public static final long MIB = 1024L * 1024L;
  public static final long BUFFER_MAX_BYTES_DEFAULT = 128 * MIB;
  public static final long BUFFER_MAX_BYTES_MIN = MIB;
  public static final String LOOKUP_SCOPE = "lookup.scope";
  public static final String TXN_APP_ID = "txn.app.id";
  public static final String PARQUET_COMPRESSION = "parquet.compression";
  public static final String FILE_TARGET_SIZE_BYTES = "file.target.size.bytes";
  public static final long FILE_TARGET_SIZE_BYTES_DEFAULT = 128 * MIB;
  public static final long FILE_TARGET_SIZE_BYTES_MIN = 1024L;
  public static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
  public static final int CHECKPOINT_INTERVAL_DEFAULT = 10;
  public static final String COMPACTION_ENABLED = "compaction.enabled";
  public static final String COMPACTION_DV_RATIO = "compaction.dv.ratio";
  public static final double COMPACTION_DV_RATIO_DEFAULT = 0.25;
  public static final String COMPACTION_MIN_FILES = "compaction.min.files";
  public static final int COMPACTION_MIN_FILES_DEFAULT = 10;
  public static final String TABLE_PROPERTIES_PREFIX = "table.properties.";
  public static final String HADOOP_PREFIX = "hadoop.";

  /** Connect's own options this connector reads but does not define. */
  public static final String CONNECTOR_NAME = "name";
  public static final String ERRORS_TOLERANCE = "errors.tolerance";
  /** Set by the connector in each task's configuration: Connect's number of the task. Not a user option. */
  public static final String TASK_ID = "mergesink.task.id";

  public static final ConfigDef CONFIG_DEF = configDef();

  /**
   * Options given by prefix, read with {@code originalsWithPrefix}; not in {@link #CONFIG_DEF}
   * (a ConfigDef has no wildcards) but documented with it.
   */
  public static final List<PrefixOption> PREFIX_OPTIONS = List.of(
      new PrefixOption(TABLE_PROPERTIES_PREFIX, GROUP_PASSTHROUGH,
          "Every " + TABLE_PROPERTIES_PREFIX + "<key>=<value> is copied, without the prefix, into the Delta "
              + "configuration of tables this connector creates, e.g. table.properties.delta.logRetentionDuration="
              + "interval 7 days. A delta.* property that enables a table feature is honoured when MergeSink meets the "
              + "feature's requirements (the protocol then lists it: delta.appendOnly=true with write.mode=append, "
              + "delta.enableDeletionVectors=true, delta.enableChangeDataFeed=true for a change feed written with every "
              + "commit, delta.feature.<name>=supported for deletionVectors, timestampNtz, domainMetadata) and refused by "
              + "validation otherwise (column mapping, type widening, row tracking, v2 checkpoints, ...), as are unknown "
              + "delta.* keys; retention, checkpoint and statistics settings pass."),
      new PrefixOption(HADOOP_PREFIX, GROUP_PASSTHROUGH,
          "Every " + HADOOP_PREFIX + "<key>=<value> is set, without the prefix, on the Hadoop configuration of "
              + "hdfs:// table roots, e.g. hadoop.dfs.client.use.datanode.hostname=true. S3 tables do not use Hadoop: "
              + "see the " + S3Config.GROUP + " group."));

  /** An option family given by a prefix. */
  public record PrefixOption(String prefix, String group, String doc) {}

  public MergeSinkConfig(Map<?, ?> originals) {
    super(CONFIG_DEF, originals, false);
  }

  private static ConfigDef configDef() {
    ConfigDef def = new ConfigDef();

    ConfigGroup tables = new ConfigGroup(def, GROUP_TABLES);
    tables.option(TABLE_ROOT, Type.STRING).validator(new ConfigDef.NonEmptyString()).importance(Importance.HIGH)
        .width(Width.LONG).displayName("Table root")
        .doc("Directory under which every table lives: a local or POSIX path (/data/lake, file:/data/lake), "
            + "hdfs://namenode/lake, or s3://bucket/lake (s3a:// is the same). Each table is the directory "
            + TABLE_ROOT + "/<" + TABLE_NAME_FORMAT + ">. Other schemes (abfs, abfss, gs, wasb, ...) are refused: "
            + "MergeSink commits need an atomic put-if-absent, proven only for these. Local paths must be writable "
            + "or creatable by the Connect worker; S3 is configured in the " + S3Config.GROUP + " group, HDFS with "
            + HADOOP_PREFIX + "* properties.")
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

    S3Config.define(def);

    ConfigGroup writes = new ConfigGroup(def, GROUP_WRITES);
    writes.option(WRITE_MODE, Type.STRING).defaultValue(WriteMode.UPSERT.configName()).oneOf(WriteMode.class)
        .importance(Importance.HIGH).displayName("Write mode")
        .doc("upsert: the table holds the latest row per primary key; changes are coalesced per key and merged. "
            + "append: every change event becomes a new row with its operation and Kafka position (audit or bronze "
            + "tables); no key is needed. history: a history table (SCD type 2) keyed like upsert, where every version "
            + "of a key is a row with __valid_from and __valid_to (the changes' source times, Debezium ts_ms, else "
            + "the Kafka timestamp) and __current; a change closes the key's current row and adds the new version, a "
            + "delete closes it, a truncate closes every current row; at most one current row per key. Versions "
            + "follow Kafka order. Works with both merge strategies.")
        .define();
    writes.option(APPEND_DELETE_IMAGE, Type.STRING).defaultValue(DeleteImage.BEFORE.configName()).oneOf(DeleteImage.class)
        .importance(Importance.MEDIUM).displayName("Append delete image")
        .doc("With write.mode=append, what the row of a delete holds besides its audit columns. before: the row "
            + "before the delete when the event carries one (Debezium's before; complete with PostgreSQL REPLICA "
            + "IDENTITY FULL or MySQL's full row image), else the key. key: the key columns only. With PostgreSQL's "
            + "default replica identity Debezium fills the NOT NULL columns of before with '' and 0: use key there. "
            + "The other columns of a delete's row are null, so append tables keep every non-key column nullable.")
        .define();
    writes.option(APPEND_TOMBSTONES, Type.STRING).defaultValue(AppendTombstones.SKIP_AFTER_DELETE.configName())
        .oneOf(AppendTombstones.class).importance(Importance.MEDIUM).displayName("Append tombstones")
        .doc("With write.mode=append, what a Kafka tombstone (a record with a key and no value) records. "
            + "skip-after-delete: nothing when the record before it in its partition is the delete of its key "
            + "(Debezium's tombstones.on.delete, on by default, sends one after every delete event: the delete is "
            + "the change's row), else a delete row of its key (a source that deletes by tombstone only). Its Kafka "
            + "position still counts as written. record: a delete row for every tombstone, so each Debezium delete "
            + "lands as two rows, the second holding only the key.")
        .define();
    writes.option(MERGE_STRATEGY, Type.STRING).defaultValue(MergeStrategy.DELETION_VECTORS.configName())
        .oneOf(TableMergeStrategy.class).importance(Importance.HIGH).displayName("Merge strategy")
        .doc("How replaced and deleted rows are removed. deletion-vectors: mark them in deletion vectors (cheap "
            + "writes; readers need deletion vector support, e.g. Spark 3.4+/Delta 2.4+, Trino, DuckDB, Delta "
            + "Kernel). copy-on-write: rewrite the files that hold them (any Delta reader). Also decides whether new "
            + "tables enable deletion vectors, so with write.mode=append, copy-on-write creates tables readable "
            + "without deletion vector support.")
        .define();
    writes.option(PRIMARY_KEY_MODE, Type.STRING).defaultValue(PrimaryKeyMode.RECORD_KEY.configName())
        .oneOf(PrimaryKeyMode.class).importance(Importance.HIGH).displayName("Primary key mode")
        .doc("Where the primary key comes from. record_key: the fields of the Kafka record key (Debezium puts the "
            + "table's primary key there); a primitive key needs one " + PRIMARY_KEY_FIELDS + " entry naming its "
            + "column. record_value: the " + PRIMARY_KEY_FIELDS + " of the record value.")
        .define();
    writes.option(PRIMARY_KEY_FIELDS, Type.LIST).defaultValue("")
        .validator(new DistinctNames("column names")).importance(Importance.MEDIUM)
        .displayName("Primary key fields")
        .doc("Comma-separated key column names. Required with primary.key.mode=record_value. With record_key, "
            + "optional: selects and orders key fields (empty: all fields of the record key).")
        .define();
    writes.option(DELETE_ENABLED, Type.BOOLEAN).defaultValue(true).importance(Importance.MEDIUM)
        .displayName("Deletes enabled")
        .doc("Whether Debezium deletes ('d', __deleted=true, __op=d) and tombstones (null values) delete the row "
            + "with their key. When false they are skipped (the position still advances).")
        .define();
    writes.option(TRUNCATE_ENABLED, Type.BOOLEAN).defaultValue(false).importance(Importance.MEDIUM)
        .displayName("Truncates enabled")
        .doc("Whether Debezium truncate events ('t') delete every row of the table. When false they are skipped "
            + "and logged once per topic.")
        .define();
    writes.option(UPSERT_ORDER_BY, Type.STRING).defaultValue("none").validator(new UpsertOrderOption())
        .recommender(new UpsertOrderOption()).importance(Importance.MEDIUM).displayName("Upsert order by")
        .doc("Which change of a key wins when Kafka delivers them out of order or twice (a re-snapshot after "
            + "streaming, a Debezium restart from an older position, a re-partitioned topic), with " + WRITE_MODE
            + "=upsert or history. none: the last delivered (Kafka order), as blind upserts that read nothing. source.lsn: "
            + "PostgreSQL's source.lsn, kept in a BIGINT column __source_lsn that MergeSink adds. source.ts_ms: when "
            + "the change was made in the database (source.ts_ms), kept in __source_ts_ms. Any other value names a "
            + "column of the table whose values order its changes (a version or update time). A change is applied "
            + "when its sequence is newer than the row's; on a tie the later delivery wins, except with source.lsn "
            + "(an equal LSN is the same change, or a snapshot row read just before it). Older changes are "
            + "skipped and counted (changes-skipped-stale-total). A Kafka "
            + "tombstone carries no source position and changes nothing the Debezium delete before it did not. "
            + "With a named column, deletes carry no value of it and apply in Kafka order. With " + WRITE_MODE
            + "=history every version keeps its sequence and that of the change that ended it (__valid_to_source_lsn, "
            + "__valid_to_source_ts_ms, or __valid_to_<column>), and a late change lands in its place of the key's "
            + "history: the version before it ends at its time. See the README, 'CDC semantics' and 'History tables'.")
        .define();
    writes.option(UPSERT_ORDER_DELETED_KEYS_MAX, Type.INT).defaultValue(ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)
        .validator(Range.atLeast(0)).importance(Importance.LOW).displayName("Upsert order deleted keys")
        .doc("With " + UPSERT_ORDER_BY + ", how many keys of deletes each task remembers per table with their "
            + "sequence, so that an older change of a deleted key arriving later does not bring the row back (a "
            + "hard-deleted row no longer holds its sequence). Beyond it the oldest are forgotten. Ordered by a source "
            + "position (and in tables whose topic grew), each commit names the keys it deleted, so a task knows every "
            + "task's deletes, after a restart those of the last 100 commits; ordered by a column, only its own since it "
            + "started. " + DELETE_MODE + "=soft keeps the sequence in the row instead.")
        .define();
    writes.option(DELETE_MODE, Type.STRING).defaultValue(DeleteMode.HARD.configName()).oneOf(DeleteMode.class)
        .importance(Importance.MEDIUM).displayName("Delete mode")
        .doc("With " + WRITE_MODE + "=upsert, what a delete does. hard: the row is removed. soft: the row stays "
            + "with __deleted = true and __deleted_at (TIMESTAMP) = the delete's source time (source.ts_ms); a later "
            + "insert or update of the key sets __deleted = false and __deleted_at = null. MergeSink adds both "
            + "columns. Readers filter on NOT __deleted. Not for " + WRITE_MODE + "=append, which keeps every "
            + "change as a row anyway, nor for " + WRITE_MODE + "=history, where a delete closes the key's current version.")
        .define();
    writes.option(SCHEMA_EVOLUTION, Type.STRING).defaultValue(SchemaEvolution.ADD_COLUMNS.configName())
        .oneOf(SchemaEvolution.class).importance(Importance.MEDIUM).displayName("Schema evolution")
        .doc("add-columns: columns that appear in records but not in the table are added as nullable columns "
            + "(ALTER TABLE ADD COLUMN in the source just works); columns that disappear are kept and get null; "
            + "nothing is ever dropped or retyped. widen-types: add-columns, and a column whose type grows in the "
            + "source (integer to bigint, float to double, a decimal to more digits, date to timestamp) is widened in "
            + "the table as Delta's type widening does (delta.typeChanges; sets delta.enableTypeWidening and the "
            + "typeWidening feature, which readers must support, e.g. Delta Lake 4.0+ or Delta Kernel 4.4); partition columns "
            + "are not widened. none: the table schema never changes and a record with unknown columns or a wider "
            + "type is an error (dead letter queue with errors.tolerance=all).")
        .define();
    writes.option(PARTITION_FIELDS, Type.LIST).defaultValue("").validator(new PartitionFieldsValidator())
        .importance(Importance.MEDIUM).displayName("Partition fields")
        .doc("The columns new tables are partitioned by (Hive-style directories; tables that exist keep their "
            + "partitioning), comma-separated: a column of the record (region), or a computed partition column "
            + "name=expression, stored as a Delta generated column and computed by MergeSink as Spark computes it: "
            + GenerationExpression.SUPPORTED + "; timestamps are taken in UTC. E.g. "
            + "region,order_day=CAST(created_at AS DATE). Empty: unpartitioned tables.")
        .define();

    ConfigGroup decoding = new ConfigGroup(def, GROUP_DECODING);
    decoding.option(UNAVAILABLE_VALUE_PLACEHOLDER, Type.STRING)
        .defaultValue(LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER)
        .validator(new ConfigDef.NonEmptyString()).importance(Importance.LOW)
        .displayName("Unavailable value placeholder")
        .doc("The source connector's unavailable.value.placeholder: a column holding it (as text, its UTF-8 bytes, or "
            + "a one-element array) was not sent (an unchanged PostgreSQL TOAST value) and keeps its current value.")
        .define();

    ConfigGroup commits = new ConfigGroup(def, GROUP_COMMITS);
    commits.option(COMMIT_INTERVAL_MS, Type.LONG).defaultValue(COMMIT_INTERVAL_MS_DEFAULT)
        .validator(Range.atLeast(0)).importance(Importance.HIGH).displayName("Commit interval (ms)")
        .doc("Longest time changes wait in the buffer before they are committed to their tables, in milliseconds; "
            + "0 commits after every batch of records. Each commit makes a Delta table version.")
        .define();
    commits.option(BUFFER_MAX_RECORDS, Type.LONG).defaultValue(BUFFER_MAX_RECORDS_DEFAULT)
        .validator(Range.atLeast(1)).importance(Importance.MEDIUM).displayName("Buffer max records")
        .doc("Commit early when a partition's buffer holds this many changes (after coalescing by key).")
        .define();
    commits.option(BUFFER_MAX_BYTES, Type.LONG).defaultValue(BUFFER_MAX_BYTES_DEFAULT)
        .validator(Range.atLeast(BUFFER_MAX_BYTES_MIN)).importance(Importance.MEDIUM).displayName("Buffer max bytes")
        .doc("Commit early when a partition's buffer holds about this many bytes of row data (an estimate of "
            + "heap use).")
        .define();
    commits.option(LOOKUP_SCOPE, Type.STRING).defaultValue(LookupScope.PARTITION.configName())
        .oneOf(LookupScope.class).importance(Importance.LOW).displayName("Key lookup scope")
        .doc("Which files a task's key index covers. partition: only files written for its own topic-partitions "
            + "(Debezium always sends a key to the same partition); when a topic gains partitions, the sink widens "
            + "the lookup for that topic to all its partitions by itself. table: every file, for topics whose keys may "
            + "move between partitions; costs more memory.")
        .define();

    ConfigGroup files = new ConfigGroup(def, GROUP_FILES);
    files.option(PARQUET_COMPRESSION, Type.STRING).defaultValue(ParquetCompression.ZSTD.configName())
        .oneOf(ParquetCompression.class).importance(Importance.LOW).displayName("Parquet compression")
        .doc("Compression codec of written Parquet data files.")
        .define();
    files.option(FILE_TARGET_SIZE_BYTES, Type.LONG).defaultValue(FILE_TARGET_SIZE_BYTES_DEFAULT)
        .validator(Range.atLeast(FILE_TARGET_SIZE_BYTES_MIN)).importance(Importance.LOW)
        .displayName("Target file size (bytes)")
        .doc("A data file is closed and a new one started when it reaches about this size; also the size "
            + "compaction aims for.")
        .define();
    files.option(CHECKPOINT_INTERVAL, Type.INT).defaultValue(CHECKPOINT_INTERVAL_DEFAULT)
        .validator(Range.atLeast(1)).importance(Importance.LOW).displayName("Checkpoint interval")
        .doc("Write a Delta checkpoint every this many commits, so opening a table reads the checkpoint and a "
            + "short log tail instead of the whole history.")
        .define();
    files.option(COMPACTION_ENABLED, Type.BOOLEAN).defaultValue(true).importance(Importance.LOW)
        .displayName("Compaction enabled")
        .doc("Whether the connector compacts the tables it writes after commits: rewrites files whose deletion "
            + "vectors hide more than " + COMPACTION_DV_RATIO + " of their rows, and merges small files once there "
            + "are " + COMPACTION_MIN_FILES + " of them.")
        .define();
    files.option(COMPACTION_DV_RATIO, Type.DOUBLE).defaultValue(COMPACTION_DV_RATIO_DEFAULT)
        .validator(Range.between(0.0, 1.0)).importance(Importance.LOW).displayName("Compaction deleted-row ratio")
        .doc("A file whose deletion vector hides more than this fraction of its rows is rewritten without them.")
        .define();
    files.option(COMPACTION_MIN_FILES, Type.INT).defaultValue(COMPACTION_MIN_FILES_DEFAULT)
        .validator(Range.atLeast(2)).importance(Importance.LOW).displayName("Compaction min small files")
        .doc("Small files (under half of " + FILE_TARGET_SIZE_BYTES + ") are merged once a table has at least this "
            + "many.")
        .define();

    return def;
  }

  public String tableRoot() {
    return getString(TABLE_ROOT);
  }

  public TableNameTemplate tableNameTemplate() {
    return TableNameTemplate.parse(getString(TABLE_NAME_FORMAT));
  }

  public WriteMode writeMode() {
    return NamedOption.parse(WriteMode.class, WRITE_MODE, getString(WRITE_MODE));
  }

  /** {@code upsert.order.by}, {@code delete.mode} and {@code upsert.order.deleted.keys.max}. */
  public ChangeSemantics changeSemantics() {
    try {
      return new ChangeSemantics(UpsertOrder.parse(getString(UPSERT_ORDER_BY)),
          NamedOption.parse(DeleteMode.class, DELETE_MODE, getString(DELETE_MODE)), getInt(UPSERT_ORDER_DELETED_KEYS_MAX));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  public AppendTombstones appendTombstones() {
    return NamedOption.parse(AppendTombstones.class, APPEND_TOMBSTONES, getString(APPEND_TOMBSTONES));
  }

  public DeleteImage appendDeleteImage() {
    return NamedOption.parse(DeleteImage.class, APPEND_DELETE_IMAGE, getString(APPEND_DELETE_IMAGE));
  }

  /** The configured strategy: deletion vectors or copy-on-write (append is {@link #writeMode()}). */
  public MergeStrategy mergeStrategy() {
    return NamedOption.parse(TableMergeStrategy.class, MERGE_STRATEGY, getString(MERGE_STRATEGY)).strategy();
  }

  /** The strategy a writer applies: {@link MergeStrategy#APPEND} in append mode, else {@link #mergeStrategy()}. */
  public MergeStrategy effectiveMergeStrategy() {
    return writeMode() == WriteMode.APPEND ? MergeStrategy.APPEND : mergeStrategy();
  }

  public PrimaryKeyMode primaryKeyMode() {
    return NamedOption.parse(PrimaryKeyMode.class, PRIMARY_KEY_MODE, getString(PRIMARY_KEY_MODE));
  }

  public List<String> primaryKeyFields() {
    return List.copyOf(getList(PRIMARY_KEY_FIELDS));
  }

  public boolean deleteEnabled() {
    return getBoolean(DELETE_ENABLED);
  }

  public boolean truncateEnabled() {
    return getBoolean(TRUNCATE_ENABLED);
  }

  /** The partition columns of new tables, {@value #PARTITION_FIELDS}. */
  public List<PartitionField> partitionFields() {
    return PartitionFieldsValidator.parse(PARTITION_FIELDS, getList(PARTITION_FIELDS));
  }

  public SchemaEvolution schemaEvolution() {
    return NamedOption.parse(SchemaEvolution.class, SCHEMA_EVOLUTION, getString(SCHEMA_EVOLUTION));
  }

  public String unavailableValuePlaceholder() {
    return getString(UNAVAILABLE_VALUE_PLACEHOLDER);
  }

  public long commitIntervalMs() {
    return getLong(COMMIT_INTERVAL_MS);
  }

  public long bufferMaxRecords() {
    return getLong(BUFFER_MAX_RECORDS);
  }

  public long bufferMaxBytes() {
    return getLong(BUFFER_MAX_BYTES);
  }

  public LookupScope lookupScope() {
    return NamedOption.parse(LookupScope.class, LOOKUP_SCOPE, getString(LOOKUP_SCOPE));
  }

  public ParquetCompression parquetCompression() {
    return NamedOption.parse(ParquetCompression.class, PARQUET_COMPRESSION, getString(PARQUET_COMPRESSION));
  }

  public long fileTargetSizeBytes() {
    return getLong(FILE_TARGET_SIZE_BYTES);
  }

  public int checkpointInterval() {
    return getInt(CHECKPOINT_INTERVAL);
  }

  public boolean compactionEnabled() {
    return getBoolean(COMPACTION_ENABLED);
  }

  public double compactionDvRatio() {
    return getDouble(COMPACTION_DV_RATIO);
  }

  public int compactionMinFiles() {
    return getInt(COMPACTION_MIN_FILES);
  }

  /**
   * {@code txn.app.id}, or the connector name when it is not set.
   *
   * @throws ConfigException when neither is set
   */
  public String txnAppId() {
    String appId = getString(TXN_APP_ID);
    if (appId != null && !appId.isBlank()) {
      return appId.trim();
    }
    Object name = originals().get(CONNECTOR_NAME);
    if (name == null || name.toString().isBlank()) {
      throw new ConfigException(TXN_APP_ID, null, "is not set and there is no connector 'name' to default to");
    }
    return name.toString().trim();
  }

  /** Connect's {@code name} of the connector, "" for a task made outside a worker. */
  public String connectorName() {
    Object name = originals().get(CONNECTOR_NAME);
    return name == null ? "" : name.toString();
  }

  /**
   * The task's number as Connect counts it ({@link #TASK_ID}), 0 for a task made outside a worker.
   *
   * @throws ConfigException when the value is not a number
   */
  public int taskId() {
    Object id = originals().get(TASK_ID);
    if (id == null) {
      return 0;
    }
    try {
      return Integer.parseInt(id.toString().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(TASK_ID, id, "expected the task's number, set by the connector");
    }
  }

  /**
   * The engine's options: every option here under its connector name.
   *
   * @throws ConfigException when the options do not go together (table properties new tables cannot take), or
   *     neither {@link #TXN_APP_ID} nor a connector name is set
   */
  public IngestOptions ingestOptions() {
    try {
      return IngestOptions.builder(tableRoot(), txnAppId())
          .storage(storageOptions())
          .tableNameFormat(getString(TABLE_NAME_FORMAT))
          .writeMode(writeMode())
          .mergeStrategy(mergeStrategy())
          .primaryKey(primaryKeyMode(), primaryKeyFields())
          .deleteEnabled(deleteEnabled())
          .truncateEnabled(truncateEnabled())
          .appendDeleteImage(appendDeleteImage())
          .appendTombstones(appendTombstones())
          .unavailableValuePlaceholder(unavailableValuePlaceholder())
          .schemaEvolution(schemaEvolution())
          .partitionFields(partitionFields())
          .commitInterval(Duration.ofMillis(commitIntervalMs()))
          .bufferLimits(bufferMaxRecords(), bufferMaxBytes())
          .lookupScope(lookupScope())
          .parquetCompression(parquetCompression().configName())
          .fileTargetSizeBytes(fileTargetSizeBytes())
          .checkpointInterval(checkpointInterval())
          .compaction(compactionEnabled(), compactionDvRatio(), compactionMinFiles())
          .tableProperties(tableProperties())
          .changeSemantics(changeSemantics())
          .build();
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** {@code table.properties.*} without the prefix. */
  public Map<String, String> tableProperties() {
    return stringsWithPrefix(TABLE_PROPERTIES_PREFIX);
  }

  /** Where tables are stored and how to reach it: the {@code hadoop.*} settings (HDFS) and the S3 options. */
  public StorageOptions storageOptions() {
    return new StorageOptions(hadoopProperties(), S3Config.options(this));
  }

  /** {@code hadoop.*} without the prefix. */
  public Map<String, String> hadoopProperties() {
    return stringsWithPrefix(HADOOP_PREFIX);
  }

  /**
   * Connect's {@code errors.tolerance} ({@code none} unless set).
   *
   * @throws ConfigException for a value other than none or all
   */
  public ErrorTolerance errorTolerance() {
    Object value = originals().get(ERRORS_TOLERANCE);
    if (value == null) {
      return ErrorTolerance.NONE;
    }
    try {
      return NamedOption.parse(ErrorTolerance.class, ERRORS_TOLERANCE, value.toString());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(ERRORS_TOLERANCE, value, "expected none or all");
    }
  }

  private Map<String, String> stringsWithPrefix(String prefix) {
    Map<String, String> result = new java.util.TreeMap<>();
    for (Map.Entry<String, Object> entry : originalsWithPrefix(prefix).entrySet()) {
      if (!entry.getKey().isEmpty() && !entry.getKey().equals("*") && entry.getValue() != null) {
        result.put(entry.getKey(), entry.getValue().toString());
      }
    }
    return Map.copyOf(result);
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
