package io.mergesink.core.snapshot;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.DomainMetadata;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.log.RemoveFile;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.log.TableState;
import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.StructType;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The immutable state of a Delta table at one version: the reconciliation of its checkpoint and
 * the commits after it (PROTOCOL.md, "Action Reconciliation"). Obtained from {@link SnapshotLoader};
 * a writer that committed actions derives its next snapshot with {@link #withCommit}.
 *
 * <p>{@link #files()} is keyed by the {@code add} action's path <em>exactly as in the log</em>
 * (URI-encoded, usually relative); use {@link AddFile#decodedPath()} or
 * {@link io.mergesink.core.log.LogPaths#resolve} for storage paths.
 */
public final class Snapshot implements TableState {
  private static final String COLUMN_MAPPING_FEATURE = "columnMapping";
  private final String tableRoot;
  private final long version;
  private final Protocol protocol;
  private final Metadata metadata;
  private final StructType schema;
  private final Map<String, AddFile> files;
  private final Map<String, RemoveFile> tombstones;
  private final Map<String, SetTransaction> transactions;
  private final Map<String, Long> txnVersions;
  private final Map<String, DomainMetadata> domainMetadata;
  private final OptionalLong lastCheckpointVersion;

  /** Takes ownership of the maps: the caller ({@link LogReplay}) must not change them afterwards. */
  Snapshot(
      String tableRoot,
      long version,
      Protocol protocol,
      Metadata metadata,
      Map<String, AddFile> files,
      Map<String, RemoveFile> tombstones,
      Map<String, SetTransaction> transactions,
      Map<String, DomainMetadata> domainMetadata,
      OptionalLong lastCheckpointVersion) {
    this.tableRoot = tableRoot;
    this.version = version;
    this.protocol = protocol;
    this.metadata = metadata;
    this.schema = metadata.schema();
    this.files = Collections.unmodifiableMap(files);
    this.tombstones = Collections.unmodifiableMap(tombstones);
    this.transactions = Collections.unmodifiableMap(transactions);
    Map<String, Long> versions = new LinkedHashMap<>();
    transactions.forEach((appId, txn) -> versions.put(appId, txn.version()));
    this.txnVersions = Collections.unmodifiableMap(versions);
    this.domainMetadata = Collections.unmodifiableMap(domainMetadata);
    this.lastCheckpointVersion = lastCheckpointVersion;
  }

  /** The table root as given to the loader. */
  public String tableRoot() {
    return tableRoot;
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public Protocol protocol() {
    return protocol;
  }

  @Override
  public Metadata metadata() {
    return metadata;
  }

  /** The parsed {@code metadata().schemaString()}. */
  public StructType schema() {
    return schema;
  }

  /**
   * The column mapping mode the table uses: its {@code delta.columnMapping.mode}, honoured only
   * when the protocol supports column mapping (reader version 2, or the {@code columnMapping}
   * reader feature); {@link ColumnMapping.Mode#NONE} otherwise (PROTOCOL.md, "Column Mapping").
   *
   * @throws IllegalArgumentException when the property names no mode
   */
  public ColumnMapping.Mode columnMapping() {
    boolean supported = protocol.minReaderVersion() == 2 || protocol.supportsReaderFeature(COLUMN_MAPPING_FEATURE);
    return supported ? ColumnMapping.mode(metadata.configuration()) : ColumnMapping.Mode.NONE;
  }

  /** Live files keyed by their path as written in the log (URI-encoded, not decoded). */
  @Override
  public Map<String, AddFile> files() {
    return files;
  }

  /** {@code remove} actions not cancelled by a later {@code add}, expired or not. */
  @Override
  public Collection<RemoveFile> tombstones() {
    return tombstones.values();
  }

  Map<String, RemoveFile> tombstoneMap() {
    return tombstones;
  }

  /** The latest {@code txn} per app id. */
  @Override
  public Map<String, SetTransaction> transactions() {
    return transactions;
  }

  /** The latest txn version per app id. */
  public Map<String, Long> txnVersions() {
    return txnVersions;
  }

  /** The latest txn version of {@code appId}, empty when the app never committed. */
  public OptionalLong txnVersion(String appId) {
    Long v = txnVersions.get(appId);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** Domain metadata per domain; removed domains are absent. */
  @Override
  public Map<String, DomainMetadata> domainMetadata() {
    return domainMetadata;
  }

  /** The version of the checkpoint this snapshot was loaded from, empty when it replayed from version 0. */
  public OptionalLong lastCheckpointVersion() {
    return lastCheckpointVersion;
  }

  /**
   * The snapshot after a commit of {@code actions} at {@code newVersion}, without reading the log.
   *
   * @throws IllegalArgumentException when {@code newVersion} is not {@code version() + 1}
   */
  public Snapshot withCommit(long newVersion, List<Action> actions) {
    if (newVersion != version + 1) {
      throw new IllegalArgumentException("table " + tableRoot + ": a commit after version " + version
          + " must have version " + (version + 1) + ", found " + newVersion);
    }
    LogReplay replay = new LogReplay(this);
    replay.apply(actions);
    return replay.toSnapshot(newVersion);
  }

  @Override
  public String toString() {
    return "Snapshot{" + tableRoot + " v" + version + ", " + files.size() + " files, txns " + txnVersions + "}";
  }
}
