package io.mergesink.ingest.format.paimon;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.maintenance.CompactionRun;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.CloseableIterator;
import org.apache.paimon.utils.SnapshotManager;

/**
 * One Paimon table as a task writes it: the table as last loaded from the catalog, and a
 * {@link PaimonWriter} opened at the first commit. Positions are those of the snapshot properties
 * ({@link SnapshotPositions}); the version is the snapshot id. Schema changes go through the
 * catalog's {@code alterTable} (Paimon's schema manager), which checks them against the schema it
 * changes.
 */
final class PaimonFormatTable implements FormatTable {
  /** The level of an LSM tree new files land in, which deletion-vector readers skip. */
  private static final int LEVEL_0 = 0;
  private final Catalog catalog;
  private final Identifier identifier;
  private final WriteKind writeKind;
  private final List<String> writerKey;
  private final String commitUserPrefix;
  private final String spillDirectory;
  private FileStoreTable table;
  /** The positions of the table's latest snapshot when it was last loaded; null until read. */
  private Map<String, Long> positions;
  private PaimonWriter writer;
  /**
   * The table's schema as the engine's, converted once per Paimon schema: the sink derives what its rows
   * need once per schema object, and asks for it with every change ({@code rowType()} builds a new row
   * type at each call).
   */
  private volatile ConvertedSchema converted;

  private record ConvertedSchema(TableSchema from, StructType schema) {}

  /**
   * @param writerKey the key for a table that records none; checked against a recorded one
   * @param commitUserPrefix the prefix of the writer's commit user (the connector's positions prefix)
   */
  PaimonFormatTable(Catalog catalog, Identifier identifier, FileStoreTable table, WriteKind writeKind, List<String> writerKey,
      String commitUserPrefix, String spillDirectory) {
    this.catalog = catalog;
    this.identifier = identifier;
    this.table = table;
    this.writeKind = writeKind;
    this.writerKey = List.copyOf(writerKey);
    this.commitUserPrefix = commitUserPrefix;
    this.spillDirectory = spillDirectory;
  }

  @Override
  public String location() {
    return table.location().toString();
  }

  @Override
  public long version() {
    Long latest = table.snapshotManager().latestSnapshotId();
    return latest == null ? 0 : latest;
  }

  @Override
  public StructType schema() {
    TableSchema current = table.schema();
    ConvertedSchema last = converted;
    if (last == null || last.from() != current) {
      last = new ConvertedSchema(current, PaimonSchemas.fromPaimon(current.logicalRowType()));
      converted = last;
    }
    return last.schema();
  }

  @Override
  public Map<String, String> properties() {
    return table.options();
  }

  @Override
  public List<String> recordedKey() {
    return table.primaryKeys();
  }

  @Override
  public Set<String> positionIds() {
    return positions().keySet();
  }

  @Override
  public OptionalLong position(String id) {
    Long offset = positions().get(id);
    return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
  }

  /** The positions as of the table last loaded, read now if they were not read with it. */
  private Map<String, Long> positions() {
    if (positions == null) {
      Snapshot latest = table.snapshotManager().latestSnapshot();
      positions = latest == null ? Map.of() : SnapshotPositions.asOf(table.snapshotManager(), latest);
    }
    return positions;
  }

  @Override
  public Optional<String> commitTag(long version, String name) {
    if (!table.snapshotManager().snapshotExists(version)) {
      return Optional.empty();
    }
    Map<String, String> properties = table.snapshotManager().snapshot(version).properties();
    return properties == null ? Optional.empty() : Optional.ofNullable(properties.get(SnapshotPositions.TAG_PREFIX + name));
  }

  /**
   * Counts the snapshots that added rows ({@code APPEND}): a MergeSink commit adds one, and the
   * compaction it runs another ({@code COMPACT}). Snapshots Paimon expired end the count.
   */
  @Override
  public long firstOfLastCommits(long version, int commits) {
    SnapshotManager snapshots = table.snapshotManager();
    int counted = 0;
    long first = version;
    for (long id = version; id >= Snapshot.FIRST_SNAPSHOT_ID && counted < commits && snapshots.snapshotExists(id); id--) {
      first = id;
      if (snapshots.snapshot(id).commitKind() == Snapshot.CommitKind.APPEND) {
        counted++;
      }
    }
    return first;
  }

  /**
   * {@code version}, or with deletion vectors the first snapshot from it on, before the next one that is
   * not a {@code COMPACT}, with no file in level 0: readers skip level 0 of a deletion-vector table, so
   * the rows of an {@code APPEND} snapshot show once the compaction of its commit (or a later one) moved
   * them up. Merged on read (deletion vectors off) every snapshot shows its rows.
   */
  @Override
  public OptionalLong readableId(long version) {
    SnapshotManager snapshots = table.snapshotManager();
    if (!snapshots.snapshotExists(version)) {
      return OptionalLong.empty();
    }
    if (!table.coreOptions().deletionVectorsEnabled()) {
      return OptionalLong.of(version);
    }
    Long latest = snapshots.latestSnapshotId();
    for (long id = version; latest != null && id <= latest && snapshots.snapshotExists(id); id++) {
      Snapshot snapshot = snapshots.snapshot(id);
      if (id > version && snapshot.commitKind() != Snapshot.CommitKind.COMPACT) {
        break; // rows changed again before readers saw those of version
      }
      if (table.store().newScan().withSnapshot(snapshot).withLevel(LEVEL_0).plan().files().isEmpty()) {
        return OptionalLong.of(id);
      }
    }
    return OptionalLong.empty();
  }

  @Override
  public boolean rewritesOnly(long version) {
    return table.snapshotManager().snapshotExists(version)
        && table.snapshotManager().snapshot(version).commitKind() == Snapshot.CommitKind.COMPACT;
  }

  @Override
  public void refresh() throws IOException {
    reload();
  }

  @Override
  public void followWriter() throws IOException {
    refresh();
  }

  /**
   * Adds the columns the table lacks. Another task may add one of them first (each task meets the
   * new column in its own records): then the table is loaded again and only what still lacks is
   * added; every round one more column is there, so it ends within a round per column.
   */
  @Override
  public void addColumns(List<StructField> columns) throws IOException {
    for (int round = 0; ; round++) {
      Set<String> present = Set.copyOf(table.rowType().getFieldNames());
      List<SchemaChange> changes = new ArrayList<>();
      for (StructField column : columns) {
        if (!present.contains(column.name())) {
          changes.add(SchemaChange.addColumn(column.name(), PaimonSchemas.toPaimon(column.name(), column.type(), true)));
        }
      }
      try {
        alter(changes);
        return;
      } catch (IllegalArgumentException e) {
        if (!(e.getCause() instanceof Catalog.ColumnAlreadyExistException) || round == columns.size()) {
          throw e;
        }
        catalog.invalidateTable(identifier); // the catalog caches the table with the schema it had before
        reload();
      }
    }
  }

  /** Paimon widens integers to wider integers, float to double and a decimal's precision, as its schema manager allows. */
  @Override
  public void widenColumns(Map<String, DataType> types) throws IOException {
    RowType rowType = table.rowType();
    List<SchemaChange> changes = new ArrayList<>();
    for (Map.Entry<String, DataType> column : types.entrySet()) {
      if (!rowType.containsField(column.getKey())) {
        continue;
      }
      org.apache.paimon.types.DataType now = rowType.getField(column.getKey()).type();
      org.apache.paimon.types.DataType wider = PaimonSchemas.toPaimon(column.getKey(), column.getValue(), now.isNullable());
      if (!now.equals(wider)) {
        changes.add(SchemaChange.updateColumnType(column.getKey(), wider));
      }
    }
    try {
      alter(changes);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      throw new IllegalArgumentException("Paimon table " + identifier + " cannot widen " + types + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void makeNullable(List<String> columns) throws IOException {
    RowType rowType = table.rowType();
    List<SchemaChange> changes = new ArrayList<>();
    for (String column : columns) {
      if (rowType.containsField(column) && !rowType.getField(column).type().isNullable()) {
        changes.add(SchemaChange.updateColumnNullability(column, true));
      }
    }
    alter(changes);
  }

  @Override
  public void changeProperties(UnaryOperator<Map<String, String>> change) throws IOException {
    reload();
    Map<String, String> before = new TreeMap<>(table.options());
    Map<String, String> after = change.apply(new TreeMap<>(before));
    List<SchemaChange> changes = new ArrayList<>();
    after.forEach((key, value) -> {
      if (!Objects.equals(before.get(key), value)) {
        changes.add(SchemaChange.setOption(key, value));
      }
    });
    before.keySet().stream().filter(key -> !after.containsKey(key)).forEach(key -> changes.add(SchemaChange.removeOption(key)));
    alter(changes);
  }

  /**
   * Commits {@code changes} to the table's schema through the catalog, which applies them to the
   * latest schema and commits the next schema id only if no other writer took it.
   */
  private void alter(List<SchemaChange> changes) throws IOException {
    if (changes.isEmpty()) {
      return;
    }
    try {
      catalog.alterTable(identifier, changes, false);
    } catch (Catalog.TableNotExistException e) {
      throw new IOException("Paimon table " + identifier + " is gone", e);
    } catch (Catalog.ColumnAlreadyExistException | Catalog.ColumnNotExistException e) {
      throw new IllegalArgumentException("Paimon table " + identifier + ": " + e.getMessage(), e);
    }
    reload();
  }

  /** Paimon tables compute no columns of their own. */
  @Override
  public Row complete(Row row) {
    return row;
  }

  /** Paimon's reader, deletion vectors and merges applied, with the bounds as a filter (files pruned by their statistics). */
  @Override
  public RowScan scan(List<String> columns, Map<String, Long> equalTo) throws IOException {
    RowType rowType = table.rowType();
    PredicateBuilder predicates = new PredicateBuilder(rowType);
    List<Predicate> filters = new ArrayList<>();
    for (Map.Entry<String, Long> bound : equalTo.entrySet()) {
      int field = fieldIndex(rowType, bound.getKey());
      filters.add(predicates.equal(field, PaimonRows.toPaimon(rowType.getTypeAt(field), bound.getValue())));
    }
    return read(columns, filters.isEmpty() ? null : PredicateBuilder.and(filters));
  }

  private RowScan read(List<String> columns, Predicate filter) throws IOException {
    RowType rowType = table.rowType();
    int[] projection = columns.stream().mapToInt(column -> fieldIndex(rowType, column)).toArray();
    ReadBuilder read = table.newReadBuilder().withProjection(projection);
    if (filter != null) {
      read = read.withFilter(filter);
    }
    RowType projected = rowType.project(projection);
    CloseableIterator<InternalRow> rows = read.newRead().createReader(read.newScan().plan()).toCloseableIterator();
    return new RowScan() {
      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public Row next() {
        return PaimonRows.fromPaimon(projected, rows.next());
      }

      @Override
      public void close() throws IOException {
        try {
          rows.close();
        } catch (IOException | RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException("closing a reader of Paimon table " + identifier + " failed", e);
        }
      }
    };
  }

  private int fieldIndex(RowType rowType, String column) {
    int index = rowType.getFieldIndex(column);
    if (index < 0) {
      throw new IllegalArgumentException("column '" + column + "' is not in Paimon table " + identifier);
    }
    return index;
  }

  /** The live rows of {@code keys} (rows of the key columns), by key, read with a filter on the key. */
  private Map<Row, Row> currentRows(List<Row> keys) throws IOException {
    List<String> key = key();
    RowType rowType = table.rowType();
    PredicateBuilder predicates = new PredicateBuilder(rowType);
    List<Predicate> anyKey = new ArrayList<>();
    for (Row row : keys) {
      List<Predicate> columns = new ArrayList<>();
      for (int i = 0; i < key.size(); i++) {
        int field = rowType.getFieldIndex(key.get(i));
        columns.add(predicates.equal(field, PaimonRows.toPaimon(rowType.getTypeAt(field), row.get(i))));
      }
      anyKey.add(PredicateBuilder.and(columns));
    }
    Set<Row> wanted = Set.copyOf(keys);
    int[] keyOrdinals = key.stream().mapToInt(rowType::getFieldIndex).toArray();
    Map<Row, Row> found = new HashMap<>();
    try (RowScan rows = read(rowType.getFieldNames(), PredicateBuilder.or(anyKey))) {
      while (rows.hasNext()) {
        Row row = rows.next();
        Row rowKey = row.project(keyOrdinals);
        if (wanted.contains(rowKey)) {
          found.put(rowKey, row);
        }
      }
    }
    return found;
  }

  /**
   * Only within the key's rows: Paimon orders a key's rows itself ({@link #ordersBySequenceColumn});
   * soft deletes and history tables are not written to Paimon tables.
   */
  @Override
  public boolean decidesAgainstRows() {
    return false;
  }

  /** A primary-key table: Paimon's merge keeps of a key's rows the one with the greatest {@code sequence.field} value. */
  @Override
  public boolean ordersBySequenceColumn() {
    return writeKind == WriteKind.BY_KEY && !recordedKey().isEmpty();
  }

  /**
   * Sets the table option {@code sequence.field} to {@code column} (Paimon allows it on an existing
   * table: rows written before have no value there and sort before every row that has one).
   *
   * @throws IllegalStateException the table is ordered by other columns (its own {@code sequence.field})
   */
  @Override
  public void orderBySequenceColumn(String column) throws IOException {
    List<String> ordered = table.coreOptions().sequenceField();
    if (ordered.equals(List.of(column))) {
      return;
    }
    reload();
    ordered = table.coreOptions().sequenceField();
    if (ordered.equals(List.of(column))) {
      return;
    }
    if (!ordered.isEmpty()) {
      throw new IllegalStateException("Paimon table " + identifier + " orders its rows by " + ordered + " (sequence.field), not by "
          + column + ", which MergeSink orders its changes by (docs/paimon.md)");
    }
    alter(List.of(SchemaChange.setOption(CoreOptions.SEQUENCE_FIELD.key(), column)));
  }

  @Override
  public LiveRows liveRows() {
    throw new IllegalStateException("Paimon table " + identifier + " does not decide changes against its rows (docs/paimon.md)");
  }

  @Override
  public MergeActions decide(MergeSpec spec, List<Row> source) {
    throw new IllegalStateException("Paimon table " + identifier + " does not decide changes against its rows (docs/paimon.md)");
  }

  @Override
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    reload();
    if (writer == null) {
      writer = new PaimonWriter(commitUserPrefix, writeKind == WriteKind.APPEND ? List.of() : key(), spillDirectory);
    }
    CommitResult result;
    try {
      result = writer.commit(table, changes, this::currentRows);
    } catch (RuntimeException e) {
      throw storageFailure(e, "committing to Paimon table " + identifier).orElseThrow(() -> e);
    }
    reload();
    return result;
  }

  /**
   * The storage failure among the causes of {@code failure}, as an {@link IOException} saying what
   * failed; empty when none is among them. Paimon hands its file IO's failures on inside runtime
   * exceptions, from its own threads too (writers, manifest reads).
   */
  static Optional<IOException> storageFailure(RuntimeException failure, String what) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException storage) {
        return Optional.of(new IOException(what + " failed: " + storage.getMessage(), failure));
      }
    }
    return Optional.empty();
  }

  /** Paimon looks keys up in its own files (its lookup compaction); the sink keeps no key index. */
  @Override
  public long keyIndexHeapBytes() {
    return 0;
  }

  @Override
  public void dropKeyIndex() {
  }

  /** Paimon's writers compact the buckets they write as part of each commit (docs/paimon.md, "Compaction"). */
  @Override
  public Optional<CompactionRun> compaction() {
    return Optional.empty();
  }

  @Override
  public void compacted() throws IOException {
    refresh();
  }

  @Override
  public boolean reassign(Collection<KafkaPartition> partitions) throws IOException {
    if (writer != null) {
      writer.close();
      writer = null;
    }
    try {
      table = (FileStoreTable) catalog.getTable(identifier);
    } catch (Catalog.TableNotExistException e) {
      return false;
    }
    readPositions();
    return true;
  }

  /** Loads the table from the catalog, and its positions. */
  private void reload() throws IOException {
    try {
      table = (FileStoreTable) catalog.getTable(identifier);
    } catch (Catalog.TableNotExistException e) {
      throw new IOException("Paimon table " + identifier + " is gone", e);
    }
    readPositions();
  }

  /**
   * Reads the positions of the table's latest snapshot. Paimon reports a snapshot it could not read
   * as a {@link RuntimeException} around the storage's {@link IOException}, which is thrown here as
   * the storage failure it is (a task's open then leaves its partitions to open at their first record).
   */
  private void readPositions() throws IOException {
    positions = null;
    try {
      positions();
    } catch (RuntimeException e) {
      throw storageFailure(e, "reading the positions of Paimon table " + identifier).orElseThrow(() -> e);
    }
  }

  /**
   * The key rows are replaced by: the table's primary key, else the writer's key.
   *
   * @throws IllegalStateException the table records another key than the writer's, or none and the writer has none
   */
  private List<String> key() {
    List<String> recorded = recordedKey();
    if (recorded.isEmpty()) {
      throw new IllegalStateException("Paimon table " + identifier + " has no primary key: it can be written with write.mode=append"
          + " only" + (writerKey.isEmpty() ? "" : ", not keyed by " + writerKey));
    }
    if (!writerKey.isEmpty() && !Set.copyOf(writerKey).equals(Set.copyOf(recorded))) {
      throw new IllegalStateException("Paimon table " + identifier + " is keyed by its primary key " + recorded + ", not by " + writerKey);
    }
    return recorded;
  }
}
