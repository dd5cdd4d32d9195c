package io.mergesink.core.table;

import io.mergesink.core.commit.CommitConflictException;
import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.commit.CommitOutcome;
import io.mergesink.core.commit.Committer;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.commit.Transaction;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.rowtracking.RowTracking;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import io.mergesink.core.writer.AppendTableWriter;
import io.mergesink.core.writer.MergingTableWriter;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * A Delta table at a path: create it, read its latest snapshot, open writers, evolve its schema,
 * scan it. Holds no state beyond its location; snapshots and writers carry the rest.
 */
public final class DeltaTable {
  private static final String DELETION_VECTORS_PROPERTY = "delta.enableDeletionVectors";
  /** The table property that allows type changes (PROTOCOL.md, "Type Widening"). */
  public static final String TYPE_WIDENING_PROPERTY = "delta.enableTypeWidening";
  private static final int MAX_METADATA_ATTEMPTS = 100;
  private static final String CREATE_OPERATION = "CREATE TABLE";
  private static final String ADD_COLUMNS_OPERATION = "ADD COLUMNS";
  private static final String CHANGE_COLUMN_OPERATION = "CHANGE COLUMN";
  private static final String SET_PROPERTIES_OPERATION = "SET TBLPROPERTIES";

  private final Storage storage;
  private final String root;
  private final SnapshotLoader loader;

  private DeltaTable(Storage storage, String root) {
    this.storage = storage;
    this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    this.loader = new SnapshotLoader(storage);
  }

  public static DeltaTable forPath(Storage storage, String root) {
    return new DeltaTable(storage, root);
  }

  public String root() {
    return root;
  }

  /**
   * The latest snapshot.
   *
   * @throws TableNotFoundException there is no Delta log at the path
   * @throws UnsupportedTableException reading needs a protocol feature MergeSink lacks
   */
  public Snapshot snapshot() throws IOException {
    Snapshot snapshot = loader.latest(root);
    ProtocolSupport.checkReadable(root, snapshot.protocol());
    return snapshot;
  }

  /**
   * The latest snapshot, built from {@code known} (an earlier snapshot of this table) by replaying
   * only the commits after it: one listing of the log when nothing was committed since, where
   * {@link #snapshot()} reads the last checkpoint and commits again.
   */
  public Snapshot snapshotAfter(Snapshot known) throws IOException {
    Snapshot snapshot = loader.update(known);
    ProtocolSupport.checkReadable(root, snapshot.protocol());
    return snapshot;
  }

  /**
   * The {@code commitInfo} of the commit of {@code version}; empty when the commit has none, or its
   * file is gone (log clean-up removes commits older than the retention).
   */
  public Optional<CommitInfo> commitInfo(long version) throws IOException {
    try {
      return loader.readCommit(root, version).stream().filter(CommitInfo.class::isInstance).map(CommitInfo.class::cast).findFirst();
    } catch (FileNotFoundException | NoSuchFileException e) {
      return Optional.empty();
    }
  }

  public boolean exists() throws IOException {
    try {
      loader.latest(root);
      return true;
    } catch (TableNotFoundException e) {
      return false;
    }
  }

  /**
   * Creates the table as version 0, or returns the existing table's latest snapshot when another
   * writer created it first (the caller decides whether that table fits). The protocol lists every
   * feature the schema, the strategy and the spec's table properties need.
   */
  public Snapshot createIfAbsent(TableSpec spec) throws IOException {
    if (!exists()) {
      Map<String, String> configuration = new LinkedHashMap<>(TableProperties.configuration(spec.properties(), spec.strategy()));
      configuration.putAll(PrimaryKeyProperty.toProperty(spec.keyColumns()));
      Set<String> features = new TreeSet<>(TableProperties.enabledFeatures(spec.properties(), spec.strategy()));
      if (spec.strategy().equals(Optional.of(MergeStrategy.DELETION_VECTORS))) {
        configuration.put(DELETION_VECTORS_PROPERTY, "true");
        features.add(Protocol.DELETION_VECTORS);
      }
      if (Boolean.parseBoolean(configuration.getOrDefault(RowTracking.ENABLE_PROPERTY, "false"))) {
        configuration.putAll(RowTracking.materializedColumnNames());
      }
      Protocol protocol = ProtocolSupport.protocolFor(spec.schema(), features);
      Metadata metadata = new Metadata(UUID.randomUUID().toString(), null, null, "parquet", Map.of(), SchemaJson.toJson(spec.schema()),
          spec.partitionColumns(), configuration, System.currentTimeMillis());
      metadata = withColumnIds(ColumnMapping.mode(configuration), metadata);
      storage.mkdirs(LogPaths.logDir(root));
      committer().create(root, new StagedCommit(List.<Action>of(protocol, metadata), Set.of(), List.of(), CREATE_OPERATION, Map.of()));
    }
    return snapshot();
  }

  /**
   * Opens a {@link MergingTableWriter} on the latest snapshot of a keyed table, which lands change
   * sets with the strategy of {@code options}.
   *
   * @throws UnsupportedTableException the table needs features MergeSink cannot honour, or cannot
   *     take the strategy (deletion vectors on a table without the feature, upserts on an
   *     append-only table, upserts without primary key)
   */
  public TableWriter newWriter(WriterOptions options) throws IOException {
    return newWriter(options, List.of());
  }

  /**
   * Opens a keyed writer on the latest snapshot of a table that may not record its primary key (one
   * written by another tool): {@code keyColumns} is used when the table records none, and must
   * equal the recorded key otherwise.
   */
  public TableWriter newWriter(WriterOptions options, List<String> keyColumns) throws IOException {
    return newWriter(options, keyColumns, snapshot());
  }

  /**
   * As {@link #newWriter(WriterOptions, List)}, on {@code latest}, a snapshot the caller just read
   * ({@link #snapshotAfter}).
   */
  public TableWriter newWriter(WriterOptions options, List<String> keyColumns, Snapshot latest) throws IOException {
    Snapshot snapshot = latest;
    ProtocolSupport.checkWritable(root, snapshot.protocol(), snapshot.metadata());
    MergeStrategy strategy = options.strategy();
    List<String> recorded = PrimaryKeyProperty.of(snapshot.metadata());
    if (!recorded.isEmpty() && !keyColumns.isEmpty() && !recorded.equals(keyColumns)) {
      throw new UnsupportedTableException(root, "primary key " + recorded + " where " + keyColumns + " was configured");
    }
    List<String> primaryKey = recorded.isEmpty() ? keyColumns : recorded;
    if (primaryKey.isEmpty()) {
      throw new UnsupportedTableException(root, "no primary key (table property " + PrimaryKeyProperty.PROPERTY + ") with merge strategy "
          + strategy.configName());
    }
    if (ProtocolSupport.isAppendOnly(snapshot.metadata())) {
      throw new UnsupportedTableException(root, "delta.appendOnly=true with merge strategy " + strategy.configName());
    }
    if (strategy == MergeStrategy.DELETION_VECTORS && !ProtocolSupport.supportsDeletionVectors(snapshot.protocol())) {
      throw new UnsupportedTableException(root, "a protocol without the deletionVectors feature (reader "
          + snapshot.protocol().minReaderVersion() + ", writer " + snapshot.protocol().minWriterVersion()
          + ") with merge strategy deletion-vectors; use copy-on-write");
    }
    if (strategy == MergeStrategy.DELETION_VECTORS && !ProtocolSupport.enablesDeletionVectors(snapshot.metadata())) {
      // PROTOCOL.md, "Deletion Vectors": writers must only write new deletion vectors while the property is true
      throw new UnsupportedTableException(root, DELETION_VECTORS_PROPERTY + "=false (new deletion vectors are not allowed) with merge"
          + " strategy deletion-vectors; use copy-on-write");
    }
    int[] keyOrdinals = PrimaryKeyProperty.ordinals(snapshot.schema(), primaryKey);
    return MergingTableWriter.open(storage, loader, snapshot, keyOrdinals, options);
  }

  /**
   * Opens an {@link AppendTableWriter} on the latest snapshot: every row of a change set is added,
   * without key or lookups; the strategy of {@code options} does not apply.
   *
   * @throws UnsupportedTableException the table needs features MergeSink cannot honour
   */
  public TableWriter newAppendWriter(WriterOptions options) throws IOException {
    return newAppendWriter(options, snapshot());
  }

  /** As {@link #newAppendWriter(WriterOptions)}, on {@code latest}, a snapshot the caller just read ({@link #snapshotAfter}). */
  public TableWriter newAppendWriter(WriterOptions options, Snapshot latest) throws IOException {
    Snapshot snapshot = latest;
    ProtocolSupport.checkWritable(root, snapshot.protocol(), snapshot.metadata());
    return AppendTableWriter.open(storage, loader, snapshot, options);
  }

  /**
   * Adds nullable columns at the end of the schema (those already present are skipped) in a
   * metadata commit, planned again on top of concurrent metadata changes. When a new column needs
   * a table feature the protocol lacks ({@code timestampNtz}), the same commit upgrades the
   * protocol, keeping every feature the table had.
   *
   * @return the snapshot after the change (unchanged when every column existed)
   */
  public Snapshot addColumns(List<StructField> columns) throws IOException {
    return changeSchema(ADD_COLUMNS_OPERATION, schema -> {
      StructType added = schema;
      for (StructField column : columns) {
        if (added.indexOf(column.name()) < 0) {
          added = added.add(new StructField(column.name(), column.type(), true, column.metadata()));
        }
      }
      return added;
    });
  }

  /**
   * Makes top-level columns nullable (Delta allows dropping NOT NULL; files written before keep
   * their values) in a metadata commit, planned again on top of concurrent metadata changes.
   *
   * @return the snapshot after the change (unchanged when every column was nullable already)
   * @throws IllegalArgumentException a column is not in the schema
   */
  public Snapshot makeNullable(List<String> columns) throws IOException {
    return changeSchema(CHANGE_COLUMN_OPERATION, schema -> {
      List<StructField> fields = new ArrayList<>(schema.fields());
      for (String column : columns) {
        int index = schema.indexOf(column);
        if (index < 0) {
          throw new IllegalArgumentException("table " + root + " has no column '" + column + "' to make nullable; columns "
              + schema.fieldNames());
        }
        StructField field = fields.get(index);
        fields.set(index, new StructField(field.name(), field.type(), true, field.metadata()));
      }
      return new StructType(fields);
    });
  }

  /**
   * Widens the types of top-level columns (PROTOCOL.md, "Type Widening") in a metadata commit,
   * planned again on top of concurrent metadata changes: each column's type becomes the given one,
   * its {@code delta.typeChanges} history records the change, the table property
   * {@value #TYPE_WIDENING_PROPERTY} is set, and the protocol gains the {@code typeWidening}
   * feature. Files written before keep the old type; readers widen their values. A column already of
   * the given type is left as it is.
   *
   * @param types new type by column name
   * @return the snapshot after the change (unchanged when no column changes)
   * @throws IllegalArgumentException a column is not in the schema, is a partition column, or
   *     cannot be widened to the type (the message names the column and both types)
   */
  public Snapshot widenColumns(Map<String, DataType> types) throws IOException {
    return changeMetadata(CHANGE_COLUMN_OPERATION, metadata -> {
      List<StructField> fields = new ArrayList<>(metadata.schema().fields());
      boolean changed = false;
      for (Map.Entry<String, DataType> column : types.entrySet()) {
        int index = metadata.schema().indexOf(column.getKey());
        if (index < 0) {
          throw new IllegalArgumentException("table " + root + " has no column '" + column.getKey() + "' to widen; columns "
              + metadata.schema().fieldNames());
        }
        StructField field = fields.get(index);
        if (field.type().equals(column.getValue())) {
          continue;
        }
        if (metadata.partitionColumns().stream().anyMatch(field.name()::equalsIgnoreCase)) {
          throw new IllegalArgumentException("table " + root + ": partition column '" + field.name() + "' is " + field.type()
              + " and MergeSink does not widen partition columns (the record has " + column.getValue() + ")");
        }
        fields.set(index, TypeChanges.widened(field, column.getValue()));
        changed = true;
      }
      if (!changed) {
        return metadata;
      }
      Map<String, String> configuration = new LinkedHashMap<>(metadata.configuration());
      configuration.put(TYPE_WIDENING_PROPERTY, "true");
      return metadata.withSchema(new StructType(fields)).withConfiguration(configuration);
    });
  }

  /**
   * Changes the table's {@code configuration} (table properties) in a metadata commit: {@code change}
   * maps the latest configuration to the new one, and is applied again to the winner's when a
   * concurrent commit changed the metadata first. Writers planning against an older snapshot plan
   * again when they meet the commit.
   *
   * @return the snapshot after the change (unchanged when {@code change} changed nothing)
   */
  public Snapshot changeConfiguration(UnaryOperator<Map<String, String>> change) throws IOException {
    return changeMetadata(SET_PROPERTIES_OPERATION, metadata -> {
      Map<String, String> next = change.apply(metadata.configuration());
      return next.equals(metadata.configuration()) ? metadata : metadata.withConfiguration(next);
    });
  }

  private Snapshot changeSchema(String operation, UnaryOperator<StructType> change) throws IOException {
    return changeMetadata(operation, metadata -> {
      StructType next = change.apply(metadata.schema());
      return next.equals(metadata.schema()) ? metadata : metadata.withSchema(next);
    });
  }

  /**
   * Commits, in a {@link Transaction}, the metadata {@code change} makes of the latest one, with the
   * protocol its schema needs, unless it returns the metadata it was given (nothing to change);
   * applied again to the winner's metadata when a concurrent commit changed the metadata first.
   *
   * @throws UnsupportedTableException when MergeSink cannot write the table (a column-mapped table,
   *     say, needs physical names and ids for new columns)
   * @throws CommitConflictException when concurrent commits kept changing the metadata first
   */
  private Snapshot changeMetadata(String operation, UnaryOperator<Metadata> change) throws IOException {
    Transaction.Unfenced<Void> outcome = new Transaction(storage, committer(), MAX_METADATA_ATTEMPTS).runWithoutTxns(snapshot(), base -> {
      ProtocolSupport.checkWritable(root, base.protocol(), base.metadata());
      Metadata changed = change.apply(base.metadata());
      if (changed == base.metadata()) {
        return Optional.empty();
      }
      changed = withColumnIds(base.columnMapping(), changed);
      List<Action> actions = new ArrayList<>();
      Protocol protocol = ProtocolSupport.forSchema(base.protocol(), changed.schema());
      if (!protocol.equals(base.protocol())) {
        actions.add(protocol);
      }
      actions.add(changed);
      return Optional.of(Transaction.Plan.of(new StagedCommit(actions, Set.of(), List.of(), operation, Map.of()), null));
    });
    if (outcome instanceof Transaction.Committed<Void> committed) {
      return loader.update(committed.base());
    }
    if (outcome instanceof Transaction.Unchanged<Void> unchanged) {
      return unchanged.snapshot();
    }
    Transaction.GaveUp<Void> gaveUp = (Transaction.GaveUp<Void>) outcome;
    throw new CommitConflictException(root, MAX_METADATA_ATTEMPTS, gaveUp.latest().version() + 1);
  }

  /**
   * {@code metadata} with a column id and physical name for every column that lacks them, and
   * {@code delta.columnMapping.maxColumnId} raised to the largest id, when the table maps columns
   * (PROTOCOL.md, "Writer Requirements for Column Mapping"); {@code metadata} itself otherwise.
   */
  private static Metadata withColumnIds(ColumnMapping.Mode mode, Metadata metadata) {
    if (mode == ColumnMapping.Mode.NONE) {
      return metadata;
    }
    ColumnMapping.Assigned assigned = ColumnMapping.assign(metadata.schema(),
        ColumnMapping.maxColumnId(metadata.configuration(), metadata.schema()));
    Map<String, String> configuration = new LinkedHashMap<>(metadata.configuration());
    configuration.put(ColumnMapping.MAX_COLUMN_ID_PROPERTY, Long.toString(assigned.maxColumnId()));
    return metadata.withSchema(assigned.schema()).withConfiguration(configuration);
  }

  /** Publishes table creation and metadata changes, with commitInfo and conflict checks like every commit. */
  private Committer committer() {
    return new Committer(storage, loader, MAX_METADATA_ATTEMPTS, CommitHook.NONE);
  }

  /** The live rows of {@code snapshot}, projected to {@code columns} (all when empty). The caller closes it. */
  public TableScan scan(Snapshot snapshot, List<String> columns) {
    return TableScan.of(storage, snapshot, columns);
  }
}
