package io.mergesink.ingest.config;

import io.mergesink.core.generatedcolumns.GenerationExpression;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.table.TableProperties;
import io.mergesink.ingest.decode.DecoderOptions;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.CatalogType;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteImage;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.PartitionTransform;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.route.TableNameTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How an {@link io.mergesink.ingest.IngestEngine} lands records: where the tables are, how records
 * become rows, when buffers are committed, how files are written and maintained. Immutable; made
 * with {@link #builder}, whose defaults are those of the engine's options, or by {@link IngestConfig#ingestOptions()}
 * (docs/configuration.md documents each option under its configuration name).
 *
 * @param tableRoot the directory under which every table lives ({@code table.root})
 * @param storage how to reach it (Hadoop settings, S3)
 * @param tableNameFormat a record's table relative to the root ({@code table.name.format})
 * @param tableFormat the table format of the tables ({@code table.format})
 * @param txnAppId the prefix of the Delta txn app ids that record the Kafka positions ({@code txn.app.id})
 * @param writeMode upsert (latest row per key), append (every change a row) or history (every version of a key a row)
 * @param mergeStrategy how upserts replace rows (deletion vectors or copy-on-write); with append
 *     tables it decides only whether new tables enable deletion vectors
 * @param primaryKeyMode where keys come from
 * @param primaryKeyFields key columns (required with {@link PrimaryKeyMode#RECORD_VALUE})
 * @param deleteEnabled whether deletes and tombstones delete rows
 * @param truncateEnabled whether Debezium truncates empty tables
 * @param appendDeleteImage what the row of a delete holds in append tables
 * @param appendTombstones whether append tables record a Kafka tombstone right after the delete of its key
 * @param unavailableValuePlaceholder Debezium's placeholder for unchanged TOAST values
 * @param schemaEvolution whether new columns of records are added to their tables (and types widened)
 * @param partitionFields the partition columns of new tables ({@code partition.fields}); tables that
 *     exist keep their partitioning
 * @param commitInterval longest time changes wait in a buffer; zero commits whenever the front end asks
 * @param bufferMaxRecords a partition's buffer asks to be committed at this many changes
 * @param bufferMaxBytes ... or at about this many bytes
 * @param lookupScope which files a task's key index covers
 * @param indexMemoryMaxBytes the heap the key indexes of a task's tables may take before those of idle tables are dropped
 *     ({@code index.memory.max.bytes}): 0 for no limit, {@link CommitOptions#INDEX_MEMORY_MAX_BYTES_AUTO} for a quarter of the JVM's maximum heap
 * @param commitThreads how many tables a flush commits at once ({@code flush.commit.threads})
 * @param pipelinedFlush whether a flush commits on a thread of its own while the task reads on ({@code flush.pipelined})
 * @param parquetCompression the codec of new data files
 * @param fileTargetSizeBytes new data files roll over at this size; compaction aims for it
 * @param checkpointInterval commits between Delta checkpoints
 * @param compactionEnabled whether the engine compacts the tables it writes, beside ingestion
 * @param compactionDeletedRatio a file whose deletion vector hides more than this share is rewritten
 * @param compactionMinSmallFiles small files are merged once there are this many
 * @param tableProperties copied into the Delta configuration of tables the engine creates
 * @param changeSemantics ordering by a source sequence and soft deletes (keyed tables only)
 * @param iceberg the catalog of Iceberg tables ({@code table.format=iceberg})
 * @param catalog where Delta tables are registered by name ({@code catalog.*})
 * @param paimon the catalog and buckets of Paimon tables ({@code table.format=paimon})
 * @param transactions whether commits hold whole source transactions, and where their ends are read
 */
public record IngestOptions(
    String tableRoot,
    StorageOptions storage,
    TableNameTemplate tableNameFormat,
    TableFormatName tableFormat,
    String txnAppId,
    WriteMode writeMode,
    MergeStrategy mergeStrategy,
    PrimaryKeyMode primaryKeyMode,
    List<String> primaryKeyFields,
    boolean deleteEnabled,
    boolean truncateEnabled,
    DeleteImage appendDeleteImage,
    AppendTombstones appendTombstones,
    String unavailableValuePlaceholder,
    SchemaEvolution schemaEvolution,
    List<PartitionField> partitionFields,
    Duration commitInterval,
    long bufferMaxRecords,
    long bufferMaxBytes,
    LookupScope lookupScope,
    long indexMemoryMaxBytes,
    int commitThreads,
    boolean pipelinedFlush,
    ParquetCompression parquetCompression,
    long fileTargetSizeBytes,
    int checkpointInterval,
    boolean compactionEnabled,
    double compactionDeletedRatio,
    int compactionMinSmallFiles,
    Map<String, String> tableProperties,
    ChangeSemantics changeSemantics,
    IcebergOptions iceberg,
    CatalogOptions catalog,
    PaimonOptions paimon,
    TransactionOptions transactions) {

  public IngestOptions {
    Objects.requireNonNull(tableRoot, "tableRoot");
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(tableNameFormat, "tableNameFormat");
    Objects.requireNonNull(tableFormat, "tableFormat");
    Objects.requireNonNull(writeMode, "writeMode");
    Objects.requireNonNull(mergeStrategy, "mergeStrategy");
    Objects.requireNonNull(primaryKeyMode, "primaryKeyMode");
    primaryKeyFields = List.copyOf(primaryKeyFields);
    Objects.requireNonNull(appendDeleteImage, "appendDeleteImage");
    Objects.requireNonNull(appendTombstones, "appendTombstones");
    Objects.requireNonNull(unavailableValuePlaceholder, "unavailableValuePlaceholder");
    Objects.requireNonNull(schemaEvolution, "schemaEvolution");
    partitionFields = List.copyOf(partitionFields);
    Objects.requireNonNull(commitInterval, "commitInterval");
    Objects.requireNonNull(lookupScope, "lookupScope");
    Objects.requireNonNull(parquetCompression, "parquetCompression");
    tableProperties = Map.copyOf(tableProperties);
    Objects.requireNonNull(changeSemantics, "changeSemantics");
    Objects.requireNonNull(iceberg, "iceberg");
    Objects.requireNonNull(paimon, "paimon");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(transactions, "transactions");
    if (catalog.type() != CatalogType.NONE && tableFormat != TableFormatName.DELTA) {
      throw new IllegalArgumentException(CatalogOptions.TYPE + "=" + catalog.type().configName() + " registers Delta tables;"
          + " Iceberg tables live in their own catalog (iceberg.catalog.*)");
    }
    checkPartitionFields(tableFormat, partitionFields);
    if (tableFormat == TableFormatName.PAIMON) {
      checkPaimon(writeMode, changeSemantics, truncateEnabled);
    }
    if (writeMode == WriteMode.APPEND && changeSemantics.merges()) {
      throw new IllegalArgumentException("upsert.order.by and delete.mode apply to keyed tables (write.mode=upsert or history;"
          + " write.mode=append records changes as rows of their own), found " + changeSemantics.orderBy().configValue()
          + " and " + changeSemantics.deleteMode().configName());
    }
    if (writeMode == WriteMode.HISTORY && changeSemantics.deleteMode() != DeleteMode.HARD) {
      throw new IllegalArgumentException("delete.mode=" + changeSemantics.deleteMode().configName() + " applies to write.mode=upsert"
          + " only: a history table records a delete by closing the key's current version");
    }
    if (tableRoot.isBlank()) {
      throw new IllegalArgumentException("the table root is empty");
    }
    if (txnAppId == null || txnAppId.isBlank()) {
      throw new IllegalArgumentException("the txn app id is empty; it names the positions in the tables");
    }
    if (commitInterval.isNegative()) {
      throw new IllegalArgumentException("the commit interval must not be negative, found " + commitInterval);
    }
    if (indexMemoryMaxBytes < 0 && indexMemoryMaxBytes != CommitOptions.INDEX_MEMORY_MAX_BYTES_AUTO) {
      throw new IllegalArgumentException(CommitOptions.INDEX_MEMORY_MAX_BYTES + " must be 0 or more, or "
          + CommitOptions.INDEX_MEMORY_MAX_BYTES_AUTO + " for a quarter of the heap, found " + indexMemoryMaxBytes);
    }
    if (bufferMaxRecords < 1 || bufferMaxBytes < 1 || fileTargetSizeBytes < 1 || checkpointInterval < 1) {
      throw new IllegalArgumentException("buffer limits, file target size and checkpoint interval must be positive, found "
          + bufferMaxRecords + ", " + bufferMaxBytes + ", " + fileTargetSizeBytes + ", " + checkpointInterval);
    }
    List<TableProperties.Refusal> refusals = TableProperties.refusals(tableProperties, tableStrategy(writeMode, mergeStrategy));
    if (!refusals.isEmpty()) {
      throw new IllegalArgumentException("table properties new tables cannot take (see docs/design.md, \"Table properties\"): "
          + refusals);
    }
    if (commitThreads < 1) {
      throw new IllegalArgumentException(CommitOptions.FLUSH_COMMIT_THREADS + " must be at least 1, found " + commitThreads);
    }
    if (compactionMinSmallFiles < 2) {
      throw new IllegalArgumentException("compaction.min.files must be at least 2, found " + compactionMinSmallFiles);
    }
    if (!(compactionDeletedRatio >= 0 && compactionDeletedRatio < 1)) {
      throw new IllegalArgumentException("compaction.dv.ratio must be in [0, 1), found " + compactionDeletedRatio);
    }
    // checked here rather than when the first table is written (fields are not set yet: no accessors)
    decoderOptions(primaryKeyMode, primaryKeyFields, deleteEnabled, truncateEnabled, unavailableValuePlaceholder, writeMode,
        appendDeleteImage);
  }

  /** Computed partition columns are Delta generated columns, transforms Iceberg's partition transforms. */
  private static void checkPartitionFields(TableFormatName tableFormat, List<PartitionField> partitionFields) {
    for (PartitionField field : partitionFields) {
      if (tableFormat == TableFormatName.ICEBERG && field.expression().isPresent()) {
        throw new IllegalArgumentException("partition.fields: computed partition column '" + field.column() + "' is a Delta"
            + " generated column; Iceberg tables are partitioned by columns and transforms: " + PartitionTransform.SUPPORTED);
      }
      if (tableFormat == TableFormatName.PAIMON && (field.expression().isPresent() || field.transform().isPresent())) {
        throw new IllegalArgumentException("partition.fields: Paimon tables are partitioned by columns; '" + field.column()
            + "' is computed (a Delta generated column or an Iceberg transform)");
      }
      if (tableFormat == TableFormatName.DELTA && field.transform().isPresent()) {
        throw new IllegalArgumentException("partition.fields: " + field.transform().get().fieldName(field.column())
            + " is an Iceberg partition transform; Delta tables are partitioned by columns and computed columns"
            + " name=expression (" + GenerationExpression.SUPPORTED + ")");
      }
    }
  }

  /**
   * What Paimon tables take of the table kinds and change semantics (docs/paimon.md): upsert tables as
   * primary-key tables, append tables as tables without a key, ordered by a source position through
   * Paimon's {@code sequence.field}; history tables, ordering by a column of the row, soft deletes and
   * truncates are refused by name.
   */
  private static void checkPaimon(WriteMode writeMode, ChangeSemantics changeSemantics, boolean truncateEnabled) {
    if (truncateEnabled) {
      throw new IllegalArgumentException("truncate.enabled=true is not supported with table.format=paimon (docs/paimon.md): a"
          + " truncate would be a snapshot of its own, apart from the positions it accounts for");
    }
    if (writeMode == WriteMode.HISTORY) {
      throw new IllegalArgumentException("write.mode=history is not supported with table.format=paimon (docs/paimon.md): use"
          + " write.mode=upsert (a primary-key table) or write.mode=append");
    }
    boolean bySourcePosition = changeSemantics.orderBy().sinkColumn();
    if (changeSemantics.merges() && (!bySourcePosition || changeSemantics.deleteMode() != DeleteMode.HARD)) {
      throw new IllegalArgumentException("upsert.order.by=" + changeSemantics.orderBy().configValue() + " and delete.mode="
          + changeSemantics.deleteMode().configName() + ": with table.format=paimon changes land in Kafka order or ordered by"
          + " source.lsn or source.ts_ms (Paimon's sequence.field), with hard deletes only (docs/paimon.md); ordering by a column"
          + " of the row and soft deletes are not supported yet");
    }
  }

  /** Options with the engine's defaults for tables under {@code tableRoot}, positions recorded under {@code txnAppId}. */
  public static Builder builder(String tableRoot, String txnAppId) {
    return new Builder(tableRoot, txnAppId);
  }

  /** The strategy of the tables written: none for append tables (they only add rows), else {@link #mergeStrategy()}. */
  public Optional<MergeStrategy> tableStrategy() {
    return tableStrategy(writeMode, mergeStrategy);
  }

  private static Optional<MergeStrategy> tableStrategy(WriteMode writeMode, MergeStrategy mergeStrategy) {
    return writeMode == WriteMode.APPEND ? Optional.empty() : Optional.of(mergeStrategy);
  }

  /**
   * What the decoder needs: deletes carry their before image only in append tables with
   * {@link DeleteImage#BEFORE}; only upsert tables need a key in every record.
   */
  public DecoderOptions decoderOptions() {
    return decoderOptions(primaryKeyMode, primaryKeyFields, deleteEnabled, truncateEnabled, unavailableValuePlaceholder, writeMode,
        appendDeleteImage);
  }

  private static DecoderOptions decoderOptions(PrimaryKeyMode keyMode, List<String> keyFields, boolean deletes, boolean truncates,
      String placeholder, WriteMode writeMode, DeleteImage deleteImage) {
    return new DecoderOptions(keyMode, keyFields, deletes, truncates, placeholder,
        writeMode == WriteMode.APPEND && deleteImage == DeleteImage.BEFORE, writeMode != WriteMode.APPEND);
  }

  /** Collects options; every setter has the option's default until called. */
  public static final class Builder {
    private final String tableRoot;
    private final String txnAppId;
    private IcebergOptions iceberg = IcebergOptions.defaults();
    private PaimonOptions paimon = PaimonOptions.defaults();
    private TransactionOptions transactions = TransactionOptions.defaults();
    private CatalogOptions catalog = CatalogOptions.none();
    private StorageOptions storage = StorageOptions.defaults();
    private TableNameTemplate tableNameFormat = TableNameTemplate.parse(TableOptions.TABLE_NAME_FORMAT_DEFAULT);
    private TableFormatName tableFormat = TableOptions.TABLE_FORMAT_DEFAULT;
    private WriteMode writeMode = WriteOptions.WRITE_MODE_DEFAULT;
    private MergeStrategy mergeStrategy = WriteOptions.MERGE_STRATEGY_DEFAULT;
    private PrimaryKeyMode primaryKeyMode = WriteOptions.PRIMARY_KEY_MODE_DEFAULT;
    private List<String> primaryKeyFields = List.of();
    private boolean deleteEnabled = WriteOptions.DELETE_ENABLED_DEFAULT;
    private boolean truncateEnabled = WriteOptions.TRUNCATE_ENABLED_DEFAULT;
    private DeleteImage appendDeleteImage = WriteOptions.APPEND_DELETE_IMAGE_DEFAULT;
    private AppendTombstones appendTombstones = WriteOptions.APPEND_TOMBSTONES_DEFAULT;
    private String unavailableValuePlaceholder = DecodingOptions.UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT;
    private SchemaEvolution schemaEvolution = WriteOptions.SCHEMA_EVOLUTION_DEFAULT;
    private List<PartitionField> partitionFields = List.of();
    private Duration commitInterval = CommitOptions.COMMIT_INTERVAL_DEFAULT;
    private long bufferMaxRecords = CommitOptions.BUFFER_MAX_RECORDS_DEFAULT;
    private long bufferMaxBytes = CommitOptions.BUFFER_MAX_BYTES_DEFAULT;
    private LookupScope lookupScope = CommitOptions.LOOKUP_SCOPE_DEFAULT;
    private long indexMemoryMaxBytes = CommitOptions.INDEX_MEMORY_MAX_BYTES_DEFAULT;
    private int commitThreads = CommitOptions.FLUSH_COMMIT_THREADS_DEFAULT;
    private boolean pipelinedFlush = CommitOptions.FLUSH_PIPELINED_DEFAULT;
    private ParquetCompression parquetCompression = FileOptions.PARQUET_COMPRESSION_DEFAULT;
    private long fileTargetSizeBytes = FileOptions.FILE_TARGET_SIZE_BYTES_DEFAULT;
    private int checkpointInterval = FileOptions.CHECKPOINT_INTERVAL_DEFAULT;
    private boolean compactionEnabled = FileOptions.COMPACTION_ENABLED_DEFAULT;
    private double compactionDeletedRatio = FileOptions.COMPACTION_DV_RATIO_DEFAULT;
    private int compactionMinSmallFiles = FileOptions.COMPACTION_MIN_FILES_DEFAULT;
    private Map<String, String> tableProperties = Map.of();
    private ChangeSemantics changeSemantics = ChangeSemantics.DEFAULT;

    private Builder(String tableRoot, String txnAppId) {
      this.tableRoot = tableRoot;
      this.txnAppId = txnAppId;
    }

    public Builder storage(StorageOptions value) {
      storage = value;
      return this;
    }

    /** @throws IllegalArgumentException the format does not parse (see {@link TableNameTemplate#parse}) */
    public Builder tableNameFormat(String value) {
      tableNameFormat = TableNameTemplate.parse(value);
      return this;
    }

    public Builder tableFormat(TableFormatName value) {
      tableFormat = value;
      return this;
    }

    public Builder writeMode(WriteMode value) {
      writeMode = value;
      return this;
    }

    public Builder mergeStrategy(MergeStrategy value) {
      mergeStrategy = value;
      return this;
    }

    public Builder primaryKey(PrimaryKeyMode mode, List<String> fields) {
      primaryKeyMode = mode;
      primaryKeyFields = fields;
      return this;
    }

    public Builder deleteEnabled(boolean value) {
      deleteEnabled = value;
      return this;
    }

    public Builder truncateEnabled(boolean value) {
      truncateEnabled = value;
      return this;
    }

    public Builder appendDeleteImage(DeleteImage value) {
      appendDeleteImage = value;
      return this;
    }

    public Builder appendTombstones(AppendTombstones value) {
      appendTombstones = value;
      return this;
    }

    public Builder unavailableValuePlaceholder(String value) {
      unavailableValuePlaceholder = value;
      return this;
    }

    public Builder schemaEvolution(SchemaEvolution value) {
      schemaEvolution = value;
      return this;
    }

    /** The partition columns of new tables; none by default. */
    public Builder partitionFields(List<PartitionField> value) {
      partitionFields = value;
      return this;
    }

    public Builder commitInterval(Duration value) {
      commitInterval = value;
      return this;
    }

    public Builder bufferLimits(long maxRecords, long maxBytes) {
      bufferMaxRecords = maxRecords;
      bufferMaxBytes = maxBytes;
      return this;
    }

    public Builder lookupScope(LookupScope value) {
      lookupScope = value;
      return this;
    }

    /** The heap the key indexes may take before those of idle tables are dropped; 0 for no limit. */
    public Builder indexMemoryMaxBytes(long value) {
      indexMemoryMaxBytes = value;
      return this;
    }

    /** How many tables a flush commits at once; 1 commits them one after the other on the calling thread. */
    public Builder commitThreads(int value) {
      commitThreads = value;
      return this;
    }

    public Builder pipelinedFlush(boolean value) {
      pipelinedFlush = value;
      return this;
    }

    public Builder parquetCompression(ParquetCompression codec) {
      parquetCompression = codec;
      return this;
    }

    public Builder fileTargetSizeBytes(long value) {
      fileTargetSizeBytes = value;
      return this;
    }

    public Builder checkpointInterval(int value) {
      checkpointInterval = value;
      return this;
    }

    /** Compaction after commits (beside ingestion), or none. */
    public Builder compaction(boolean enabled, double deletedRatio, int minSmallFiles) {
      compactionEnabled = enabled;
      compactionDeletedRatio = deletedRatio;
      compactionMinSmallFiles = minSmallFiles;
      return this;
    }

    public Builder tableProperties(Map<String, String> value) {
      tableProperties = value;
      return this;
    }

    /** Ordering by a source sequence and soft deletes; Kafka order and hard deletes by default. */
    public Builder changeSemantics(ChangeSemantics value) {
      changeSemantics = value;
      return this;
    }

    /** @throws IllegalArgumentException naming the option that is out of range */
    public Builder iceberg(IcebergOptions value) {
      iceberg = value;
      return this;
    }

    /** Where Delta tables are registered by name; nowhere by default. */
    public Builder catalog(CatalogOptions value) {
      catalog = value;
      return this;
    }

    /** The catalog and buckets of Paimon tables; a filesystem catalog on the table root and 4 buckets by default. */
    public Builder paimon(PaimonOptions value) {
      paimon = value;
      return this;
    }

    /** Whether commits hold whole source transactions; {@code auto} without a transaction topic consumer by default. */
    public Builder transactions(TransactionOptions value) {
      transactions = value;
      return this;
    }

    public IngestOptions build() {
      return new IngestOptions(tableRoot, storage, tableNameFormat, tableFormat, txnAppId, writeMode, mergeStrategy, primaryKeyMode,
          primaryKeyFields, deleteEnabled, truncateEnabled, appendDeleteImage, appendTombstones, unavailableValuePlaceholder,
          schemaEvolution,
          partitionFields, commitInterval, bufferMaxRecords, bufferMaxBytes, lookupScope, indexMemoryMaxBytes, commitThreads, pipelinedFlush,
          parquetCompression,
          fileTargetSizeBytes, checkpointInterval, compactionEnabled, compactionDeletedRatio, compactionMinSmallFiles, tableProperties, changeSemantics,
          iceberg, catalog, paimon, transactions);
    }
  }
}
