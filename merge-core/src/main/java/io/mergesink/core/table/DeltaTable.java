package io.mergesink.core.table;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.LogCodec;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.merge.MergingTableWriter;
import io.mergesink.core.merge.TableWriter;
import io.mergesink.core.merge.WriterOptions;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A Delta table at a path: create it, read its latest snapshot, open writers, evolve its schema,
 * scan it. Holds no state beyond its location; snapshots and writers carry the rest.
 */
public final class DeltaTable {
  private static final String DELETION_VECTORS_PROPERTY = "delta.enableDeletionVectors";
  private static final int MAX_METADATA_ATTEMPTS = 100;

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
   * writer created it first (the caller decides whether that table fits).
   */
  public Snapshot createIfAbsent(TableSpec spec) throws IOException {
    if (!exists()) {
      boolean deletionVectors = spec.strategy() == MergeStrategy.DELETION_VECTORS;
      Map<String, String> configuration = new LinkedHashMap<>(spec.properties());
      configuration.putAll(KeyColumns.toProperty(spec.keyColumns()));
      if (deletionVectors) {
        configuration.put(DELETION_VECTORS_PROPERTY, "true");
      }
      Protocol protocol = ProtocolSupport.protocolFor(spec.schema(), deletionVectors);
      Metadata metadata = new Metadata(UUID.randomUUID().toString(), null, null, "parquet", Map.of(), SchemaJson.toJson(spec.schema()),
          List.of(), configuration, System.currentTimeMillis());
      storage.mkdirs(LogPaths.logDir(root));
      storage.writeIfAbsent(LogPaths.commitFile(root, 0), LogCodec.serialize(List.<Action>of(protocol, metadata)));
    }
    return snapshot();
  }

  /**
   * Opens a writer on the latest snapshot.
   *
   * @throws UnsupportedTableException the table needs features MergeSink cannot honour, or cannot
   *     take the strategy (deletion vectors on a table without the feature, upserts on an
   *     append-only table, upserts without primary key)
   */
  public TableWriter newWriter(WriterOptions options) throws IOException {
    return newWriter(options, List.of());
  }

  /**
   * Opens a writer on the latest snapshot of a table that may not record its primary key (one
   * written by another tool): {@code keyColumns} is used when the table records none, and must
   * equal the recorded key otherwise.
   */
  public TableWriter newWriter(WriterOptions options, List<String> keyColumns) throws IOException {
    Snapshot snapshot = snapshot();
    ProtocolSupport.checkWritable(root, snapshot.protocol(), snapshot.metadata());
    MergeStrategy strategy = options.strategy();
    List<String> recorded = KeyColumns.of(snapshot.metadata());
    if (!recorded.isEmpty() && !keyColumns.isEmpty() && !recorded.equals(keyColumns)) {
      throw new UnsupportedTableException(root, "primary key " + recorded + " where " + keyColumns + " was configured");
    }
    List<String> primaryKey = recorded.isEmpty() ? keyColumns : recorded;
    if (strategy != MergeStrategy.APPEND) {
      if (primaryKey.isEmpty()) {
        throw new UnsupportedTableException(root, "no primary key (table property " + KeyColumns.PROPERTY + ") with merge strategy "
            + strategy.configName());
      }
      if (ProtocolSupport.isAppendOnly(snapshot.metadata())) {
        throw new UnsupportedTableException(root, "delta.appendOnly=true with merge strategy " + strategy.configName());
      }
    }
    if (strategy == MergeStrategy.DELETION_VECTORS && !ProtocolSupport.supportsDeletionVectors(snapshot.protocol())) {
      throw new UnsupportedTableException(root, "a protocol without the deletionVectors feature (reader "
          + snapshot.protocol().minReaderVersion() + ", writer " + snapshot.protocol().minWriterVersion()
          + ") with merge strategy deletion-vectors; use copy-on-write");
    }
    int[] keyOrdinals = strategy == MergeStrategy.APPEND ? new int[0] : KeyColumns.ordinals(snapshot.schema(), primaryKey);
    return MergingTableWriter.open(storage, loader, snapshot, keyOrdinals, options);
  }

  /**
   * Adds nullable columns at the end of the schema (those already present are skipped) in a
   * metadata-only commit, retried on top of concurrent commits.
   *
   * @return the snapshot after the change (unchanged when every column existed)
   * @throws UnsupportedTableException when MergeSink cannot write the table (a column-mapped table,
   *     say, needs physical names and ids for new columns)
   */
  public Snapshot addColumns(List<StructField> columns) throws IOException {
    for (int attempt = 0; attempt < MAX_METADATA_ATTEMPTS; attempt++) {
      Snapshot snapshot = snapshot();
      ProtocolSupport.checkWritable(root, snapshot.protocol(), snapshot.metadata());
      StructType schema = snapshot.schema();
      for (StructField column : columns) {
        if (schema.indexOf(column.name()) < 0) {
          schema = schema.add(new StructField(column.name(), column.type(), true, column.metadata()));
        }
      }
      if (schema.equals(snapshot.schema())) {
        return snapshot;
      }
      Metadata current = snapshot.metadata();
      Metadata evolved = new Metadata(current.id(), current.name(), current.description(), current.provider(), current.formatOptions(),
          SchemaJson.toJson(schema), current.partitionColumns(), current.configuration(), current.createdTime());
      if (storage.writeIfAbsent(LogPaths.commitFile(root, snapshot.version() + 1), LogCodec.serialize(List.<Action>of(evolved)))) {
        return loader.update(snapshot);
      }
    }
    throw new io.mergesink.core.commit.CommitConflictException(root, MAX_METADATA_ATTEMPTS, -1);
  }

  /** The live rows of {@code snapshot}, projected to {@code columns} (all when empty). The caller closes it. */
  public TableScan scan(Snapshot snapshot, List<String> columns) {
    return TableScan.of(storage, snapshot, columns);
  }
}
