package io.mergesink.ingest.config;

import static io.mergesink.ingest.config.CommitOptions.*;
import static io.mergesink.ingest.config.DecodingOptions.*;
import static io.mergesink.ingest.config.FileOptions.*;
import static io.mergesink.ingest.config.PassThroughOptions.*;
import static io.mergesink.ingest.config.TableOptions.*;
import static io.mergesink.ingest.config.WriteOptions.*;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteImage;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.options.NamedOption;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.TransactionBoundaries;
import io.mergesink.ingest.options.UpsertOrder;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.route.TableNameTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The engine's options parsed and validated, one by one: names, types, defaults, validators and
 * documentation come from the option classes of this package ({@link TableOptions},
 * {@link S3StoreOptions}, {@link AzureStoreOptions}, {@link WriteOptions}, {@link DecodingOptions}, {@link CommitOptions},
 * {@link FileOptions}, {@link PassThroughOptions}); {@link #ingestOptions()} makes the engine's
 * {@link IngestOptions} of them. Front ends use it as it is (Kafka Streams) or extend it with what only
 * they know (the Kafka Connect connector's name and task).
 *
 * <p>Constructing a config validates every single option and throws {@link ConfigException}.
 */
public class IngestConfig extends AbstractConfig {
  /** Every engine option. */
  public static final ConfigDef CONFIG_DEF = configDef();

  public IngestConfig(Map<?, ?> originals) {
    this(CONFIG_DEF, originals);
  }

  /** A config of {@code definition}, which holds every option of {@link #configDef()} and maybe a front end's own. */
  protected IngestConfig(ConfigDef definition, Map<?, ?> originals) {
    super(definition, originals, false);
  }

  /** A new definition of every engine option, in groups, in the order the reference lists them. */
  public static ConfigDef configDef() {
    ConfigDef def = new ConfigDef();
    TableOptions.define(def);
    S3StoreOptions.define(def);
    AzureStoreOptions.define(def);
    WriteOptions.define(def);
    DecodingOptions.define(def);
    CommitOptions.define(def);
    FileOptions.define(def);
    CatalogOptions.define(def);
    TransactionOptions.define(def);
    return def;
  }

  public String tableRoot() {
    return getString(TABLE_ROOT);
  }

  public TableNameTemplate tableNameTemplate() {
    return TableNameTemplate.parse(getString(TABLE_NAME_FORMAT));
  }

  public TableFormatName tableFormat() {
    return NamedOption.parse(TableFormatName.class, TABLE_FORMAT, getString(TABLE_FORMAT));
  }

  /**
   * {@code txn.app.id}.
   *
   * @throws ConfigException when it is not set
   */
  public String txnAppId() {
    String appId = getString(TXN_APP_ID);
    if (appId == null || appId.isBlank()) {
      throw new ConfigException(TXN_APP_ID, appId, "is required: it names the positions of this sink in its tables");
    }
    return appId.trim();
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

  /** The partition columns of new tables, {@value WriteOptions#PARTITION_FIELDS}. */
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
   * The engine's options: every option here under its configuration name.
   *
   * @throws ConfigException when the options do not go together (table properties new tables cannot take), or
   *     there is no {@link #txnAppId()}
   */
  public IngestOptions ingestOptions() {
    try {
      return IngestOptions.builder(tableRoot(), txnAppId())
          .storage(storageOptions())
          .tableNameFormat(getString(TABLE_NAME_FORMAT))
          .tableFormat(tableFormat())
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
          .indexMemoryMaxBytes(getLong(INDEX_MEMORY_MAX_BYTES))
          .commitThreads(getInt(FLUSH_COMMIT_THREADS))
          .pipelinedFlush(getBoolean(FLUSH_PIPELINED))
          .parquetCompression(parquetCompression())
          .fileTargetSizeBytes(fileTargetSizeBytes())
          .checkpointInterval(checkpointInterval())
          .compaction(compactionEnabled(), compactionDvRatio(), compactionMinFiles())
          .tableProperties(tableProperties())
          .changeSemantics(changeSemantics())
          .iceberg(new IcebergOptions(getString(ICEBERG_CATALOG_NAME), stringsWithPrefix(ICEBERG_CATALOG_PREFIX),
              getString(ICEBERG_DEFAULT_NAMESPACE)))
          .paimon(new PaimonOptions(stringsWithPrefix(PAIMON_CATALOG_PREFIX), getString(PAIMON_DATABASE), getInt(PAIMON_BUCKET)))
          .catalog(CatalogOptions.of(this))
          .transactions(TransactionOptions.configured(NamedOption.parse(TransactionBoundaries.class, TransactionOptions.BOUNDARIES,
              getString(TransactionOptions.BOUNDARIES)), getString(TransactionOptions.TOPIC),
              stringsWithPrefix(TransactionOptions.KAFKA_PREFIX), Duration.ofMillis(getLong(TransactionOptions.CUT_INTERVAL))))
          .build();
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** {@code table.properties.*} without the prefix. */
  public Map<String, String> tableProperties() {
    return stringsWithPrefix(TABLE_PROPERTIES_PREFIX);
  }

  /** Where tables are stored and how to reach it: the {@code hadoop.*} settings (HDFS), the S3 and the Azure options. */
  public StorageOptions storageOptions() {
    return new StorageOptions(hadoopProperties(), S3StoreOptions.options(this), AzureStoreOptions.options(this));
  }

  /** {@code hadoop.*} without the prefix. */
  public Map<String, String> hadoopProperties() {
    return stringsWithPrefix(HADOOP_PREFIX);
  }

  private Map<String, String> stringsWithPrefix(String prefix) {
    Map<String, String> result = new TreeMap<>();
    for (Map.Entry<String, Object> entry : originalsWithPrefix(prefix).entrySet()) {
      if (!entry.getKey().isEmpty() && !entry.getKey().equals("*") && entry.getValue() != null) {
        result.put(entry.getKey(), entry.getValue().toString());
      }
    }
    return Map.copyOf(result);
  }
}
