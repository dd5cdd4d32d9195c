package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.ChangeSetRealignment;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.changes.ReadSet;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.changes.RowValidator;
import io.mergesink.core.commit.CommitConflictException;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.merge.MergeCounts;
import io.mergesink.core.merge.UnchangedFiller;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.ingest.format.iceberg.IcebergKeyIndex.TrackedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Lands change sets in one Iceberg table as one {@link RowDelta} each (docs/iceberg.md, "A
 * commit"): new rows in new Parquet data files written by Iceberg's writers; the rows they replace
 * and the deleted keys found by the {@link IcebergKeyIndex} and marked by position
 * ({@link PositionMarks}); the Kafka positions in the snapshot summary, compare-and-set by a
 * {@link SnapshotPositions.Check} that Iceberg runs against the parent the commit lands on.
 *
 * <p>When the commit fails because another writer changed what it was planned on (a data file it
 * marks was rewritten, a deletion vector added to one of its files, a position it carries forward
 * moved), the index follows the table and the marks are planned again; the data files, which do
 * not depend on the table, are kept. Not thread-safe: one writer per table per task.
 */
final class IcebergWriter {
  private static final int MAX_ATTEMPTS = 20;

  private final Table table;
  private final List<String> keyColumns;
  private final RowLevelOperationMode defaultMode;
  private IcebergKeyIndex index;

  /**
   * @param keyColumns the key by which rows are replaced; empty: rows are only added
   * @param defaultMode how rows are replaced when the table's {@code write.merge.mode} does not say
   */
  IcebergWriter(Table table, List<String> keyColumns, RowLevelOperationMode defaultMode) {
    this.table = table;
    this.keyColumns = List.copyOf(keyColumns);
    this.defaultMode = defaultMode;
  }

  /** The heap the key index takes, an estimate; 0 before it is built. */
  long indexHeapBytes() {
    return index == null ? 0 : index.estimatedHeapBytes();
  }

  /** The key index, built at the first call that needs it. */
  IcebergKeyIndex index() {
    if (index == null) {
      StructType schema = IcebergSchemas.fromIceberg(table.schema());
      index = IcebergKeyIndex.build(table, table.currentSnapshot(), keyColumns, schema.select(keyColumns),
          CurrentRowColumn.of(table.properties()));
    } else {
      index.follow(table.currentSnapshot());
    }
    return index;
  }

  /** The live rows by key as of the table's current snapshot, valid until the next commit or refresh. */
  IcebergLiveRows liveRows() {
    return new IcebergLiveRows(table, index());
  }

  /**
   * Commits {@code changes} with their positions.
   *
   * @throws FencedException a position is not where the change set expects it; nothing was committed
   * @throws MovedRowsException the table's properties are not those the change set was decided under, or a commit
   *     since it was decided changed the rows it was decided from ({@link ChangeSet#decidedFrom()}) or removed a row
   *     it removes by position
   * @throws CommitConflictException concurrent commits kept winning
   */
  CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    long started = System.nanoTime();
    StructType schema = IcebergSchemas.fromIceberg(table.schema());
    ChangeSet aligned = ChangeSetRealignment.to(table.location(), schema, changes);
    KeyedChanges keyed = keyColumns.isEmpty() ? null
        : KeyedChanges.of(table.location(), schema, keyColumns.stream().mapToInt(schema::indexOf).toArray(),
            CurrentRowColumn.of(table.properties()), aligned);
    List<Row> rows = keyed == null ? appendedRows(schema, aligned) : withAppends(filled(keyed), keyed.appends());
    NewRows written = write(rows);
    for (int attempt = 1; ; attempt++) {
      checkDecidedUnder(aligned);
      aligned.checkTags(table.location(), committedVersion(), tagsBySequence());
      Attempt planned = plan(aligned, keyed);
      try {
        planned.commit(written.files());
        Snapshot committed = table.currentSnapshot();
        if (index != null) {
          if (planned.removedFiles.isEmpty() && planned.rewrite.removed().isEmpty() && Objects.equals(committed.parentId(), planned.base == null ? null : planned.base.snapshotId())) {
            index.landed(committed, planned.deleted, planned.deletes.deleteFiles(), planned.deletes.rewrittenDeleteFiles(), written,
                keyed.upsertKeys());
          } else {
            index.follow(committed);
          }
        }
        List<DataFile> added = new ArrayList<>(written.files());
        added.addAll(planned.rewrite.added());
        MergeCounts counts = new MergeCounts(rows.size(), planned.marks.count(), added.size(),
            planned.removedFiles.size() + planned.rewrite.removed().size(), planned.deletes.deleteFiles().size(),
            added.stream().mapToLong(ContentFile::fileSizeInBytes).sum());
        return new CommitResult(committed.sequenceNumber(), counts, attempt, attempt - 1, System.nanoTime() - started, false);
      } catch (ValidationException | CommitFailedException e) {
        planned.discard();
        if (planned.check.fenced() != null) {
          discard(written.files());
          String id = planned.check.fenced();
          throw new FencedException(table.location(), id, committedVersion(), aligned.txns().get(id).expected(), planned.check.fencedAt());
        }
        if (attempt >= MAX_ATTEMPTS) {
          discard(written.files());
          throw new CommitConflictException(table.location(), attempt, committedVersion());
        }
        table.refresh();
      } catch (RuntimeException | IOException e) {
        planned.discard();
        discard(written.files());
        throw e;
      }
    }
  }

  /**
   * The rows of a change set for a table without key: rows only, each fitting {@code schema}.
   *
   * @throws InvalidChangeSetException the change set deletes, truncates or removes, or a row does not fit
   */
  private List<Row> appendedRows(StructType schema, ChangeSet changes) {
    if (!changes.deletes().isEmpty() || !changes.appends().isEmpty() || !changes.removals().isEmpty() || changes.truncate()) {
      throw new InvalidChangeSetException(table.location(), "a table without key takes rows only, found " + changes.deletes().size()
          + " deletes, " + changes.appends().size() + " history appends, " + changes.removals().size() + " removals by position"
          + (changes.truncate() ? " and a truncate" : ""));
    }
    for (Row row : changes.upserts()) {
      String problem = RowValidator.problem(schema, row, false);
      if (problem != null) {
        throw new InvalidChangeSetException(table.location(), "row " + row + ": " + problem);
      }
    }
    return changes.upserts();
  }

  /** The upserts with their unchanged columns filled from the live rows they replace (or their previous key's). */
  private List<Row> filled(KeyedChanges keyed) throws IOException {
    if (!keyed.hasUnchangedValues()) {
      return keyed.upserts();
    }
    IcebergKeyIndex keys = index();
    List<Row> filled = new ArrayList<>(keyed.upserts());
    Map<String, TreeMap<Long, Integer>> wanted = new HashMap<>();
    Map<String, TrackedFile> files = new HashMap<>();
    for (int i = 0; i < filled.size(); i++) {
      if (!UnchangedFiller.hasUnchanged(filled.get(i))) {
        continue;
      }
      long location = anyLocation(keys, keyed.upsertKeys()[i]);
      if (location == KeyIndex.NO_LOCATION && keyed.previousKey(i) != null) {
        location = anyLocation(keys, keyed.previousKey(i));
      }
      if (location == KeyIndex.NO_LOCATION) {
        filled.set(i, UnchangedFiller.merge(filled.get(i), null));
      } else {
        TrackedFile file = keys.file(location);
        files.put(file.file().location(), file);
        wanted.computeIfAbsent(file.file().location(), path -> new TreeMap<>()).put(RowLocation.rowIndex(location), i);
      }
    }
    int width = table.schema().columns().size();
    for (Map.Entry<String, TreeMap<Long, Integer>> file : wanted.entrySet()) {
      TrackedFile tracked = files.get(file.getKey());
      DataFileRows.Rows rows = DataFileRows.read(table.io(), table.schema(), tracked.file(), tracked.positionDeletes(),
          table.schema().columns().stream().map(column -> column.name()).toList());
      try (var records = rows.records()) {
        for (Record record : records) {
          Integer upsert = file.getValue().get((Long) record.get(rows.position()));
          if (upsert != null) {
            filled.set(upsert, UnchangedFiller.merge(filled.get(upsert), IcebergRows.toRow(table.schema().asStruct(), record, width)));
          }
        }
      }
    }
    return filled;
  }

  /** The upserts, then the closed versions of a history table: the key index takes the first rows written only. */
  private static List<Row> withAppends(List<Row> upserts, List<Row> appends) {
    if (appends.isEmpty()) {
      return upserts;
    }
    List<Row> rows = new ArrayList<>(upserts.size() + appends.size());
    rows.addAll(upserts);
    rows.addAll(appends);
    return rows;
  }

  private static long anyLocation(IcebergKeyIndex keys, Row key) {
    long location = keys.lookup(key);
    return location == KeyIndex.MULTIPLE_LOCATIONS ? keys.locations(key)[0] : location;
  }

  /**
   * Plans the deletes of one attempt against the table's current snapshot.
   *
   * @throws MovedRowsException the rows the change set was decided from, or a row it removes by position, moved
   */
  private Attempt plan(ChangeSet changes, KeyedChanges keyed) throws MovedRowsException {
    Snapshot base = table.currentSnapshot();
    Attempt attempt = new Attempt(base, changes.decidedFrom().isPresent());
    // a change set of positions alone builds no index (one dropped to free the heap stays dropped, KeyIndexBudget)
    if (keyed != null && (index != null || changes.hasRowChanges() || changes.decidedFrom().isPresent())) {
      IcebergKeyIndex keys = index();
      checkDecidedFrom(changes, keys);
      attempt.marks = new PositionMarks(table, keys);
      markRemovals(changes.removals(), keys, attempt.marks);
      if (changes.truncate()) {
        keys.files().forEach(file -> attempt.removedFiles.add(file.file()));
      } else {
        for (Row key : keyed.upsertKeys()) {
          attempt.mark(keys, key);
        }
        for (Row key : keyed.deleteKeys()) {
          attempt.mark(keys, key);
        }
      }
    } else {
      attempt.marks = new PositionMarks(table, null);
    }
    Map<String, Long> recorded = SnapshotPositions.of(base == null ? List.of() : SnapshotUtil.ancestorsOf(base.snapshotId(), table::snapshot));
    Map<String, Long> carried = new TreeMap<>(recorded);
    changes.txns().forEach((id, move) -> carried.put(id, move.version()));
    attempt.carried = carried;
    attempt.check = new SnapshotPositions.Check(changes.txns(), carried);
    attempt.tags = changes.commitTags();
    return attempt;
  }

  /**
   * A change set decided from live rows lands only while they are where they were, or were only
   * moved: when every commit since is a rewrite (a compaction, ours or another engine's, which moves
   * rows and changes none) the rows decided from are the same, and the deletes, planned by key, find
   * them where they are now.
   */
  private void checkDecidedFrom(ChangeSet changes, IcebergKeyIndex keys) throws MovedRowsException {
    if (changes.decidedFrom().isEmpty()) {
      return;
    }
    ReadSet read = changes.decidedFrom().get();
    if (!onlyRewritesSince(read.version())) {
      read.check(table.location(), IcebergLiveRows.version(keys.snapshotId()), keys.rows());
    }
  }

  /** Whether the table's current snapshot descends from the snapshot {@code version} names by rewrites only. */
  private boolean onlyRewritesSince(long version) {
    for (Snapshot snapshot = table.currentSnapshot(); snapshot != null; ) {
      if (snapshot.snapshotId() == version) {
        return true;
      }
      if (!DataOperations.REPLACE.equals(snapshot.operation())) {
        return false;
      }
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    return false;
  }

  /**
   * Marks the rows removed by position (a history table's closed versions).
   *
   * @throws MovedRowsException a row's data file is no longer in the table, or the row was deleted since the change set was decided
   */
  private void markRemovals(List<RowPosition> removals, IcebergKeyIndex keys, PositionMarks marks) throws MovedRowsException {
    Map<String, PositionDeleteIndex> deleted = new HashMap<>();
    for (RowPosition removal : removals) {
      TrackedFile file = keys.file(removal.path());
      if (file == null) {
        throw new MovedRowsException(table.location(), removal, "its data file was rewritten or removed");
      }
      if (deleted.computeIfAbsent(removal.path(), keys::deletedPositions).isDeleted(removal.rowIndex())) {
        throw new MovedRowsException(table.location(), removal, "a commit deleted it");
      }
      marks.mark(file, removal.rowIndex());
    }
  }

  /** One planned commit: what it deletes and the positions it records, on {@code base}. */
  private final class Attempt {
    final Snapshot base;
    /** Whether the change set was decided from rows: no commit that adds rows or deletes may come between base and it. */
    final boolean decidedFromRows;
    final List<Map.Entry<Row, Long>> deleted = new ArrayList<>();
    final List<DataFile> removedFiles = new ArrayList<>();
    PositionMarks marks;
    DeleteWriteResult deletes = new DeleteWriteResult(List.of());
    PositionMarks.Rewrite rewrite = PositionMarks.Rewrite.NONE;
    Map<String, Long> carried;
    Map<String, String> tags;
    SnapshotPositions.Check check;

    Attempt(Snapshot base, boolean decidedFromRows) {
      this.base = base;
      this.decidedFromRows = decidedFromRows;
    }

    void mark(IcebergKeyIndex keys, Row key) {
      long location = keys.lookup(key);
      if (location == KeyIndex.NO_LOCATION) {
        return;
      }
      for (long each : location == KeyIndex.MULTIPLE_LOCATIONS ? keys.locations(key) : new long[] {location}) {
        marks.mark(keys.file(each), RowLocation.rowIndex(each));
        deleted.add(Map.entry(key, each));
      }
    }

    void commit(List<DataFile> written) throws IOException {
      if (!marks.isEmpty() && copyOnWrite()) {
        rewrite = marks.rewrite();
      } else if (!marks.isEmpty()) {
        deletes = marks.write();
      }
      RowDelta delta = table.newRowDelta();
      written.forEach(delta::addRows);
      rewrite.removed().forEach(delta::removeRows);
      rewrite.added().forEach(delta::addRows);
      rewrite.removedDeletes().forEach(delta::removeDeletes);
      deletes.deleteFiles().forEach(delta::addDeletes);
      deletes.rewrittenDeleteFiles().forEach(delta::removeDeletes);
      removedFiles.forEach(delta::removeRows);
      if (base != null) {
        delta.validateFromSnapshot(base.snapshotId()).validateDeletedFiles();
        if (!rewrite.removed().isEmpty()) {
          delta.validateNoConflictingDeleteFiles(); // a delete landed meanwhile in a file this commit rewrites would be lost
        } else if (!marks.isEmpty()) {
          delta.validateDataFilesExist(marks.dataFiles());
        }
      }
      if (decidedFromRows) {
        // a concurrent commit that lands first fails this one; the next attempt checks what it changed (checkDecidedFrom)
        delta.validateNoConflictingDataFiles().validateNoConflictingDeleteFiles();
      }
      carried.forEach((id, offset) -> delta.set(SnapshotPositions.PREFIX + id, Long.toString(offset)));
      tags.forEach((name, value) -> delta.set(SnapshotPositions.TAG_PREFIX + name, value));
      delta.validateWith(check).commit();
    }

    /** Deletes the delete files and rewritten data files this attempt wrote (it did not land). */
    void discard() {
      deletes.deleteFiles().forEach(file -> table.io().deleteFile(file.location()));
      deletes = new DeleteWriteResult(List.of());
      IcebergWriter.this.discard(rewrite.added());
      rewrite = PositionMarks.Rewrite.NONE;
    }
  }

  /** Whether replaced rows are rewritten out of their files rather than marked: the table's {@code write.merge.mode}, as Spark's MERGE reads it. */
  private boolean copyOnWrite() {
    String mode = table.properties().get(TableProperties.MERGE_MODE);
    return (mode == null ? defaultMode : RowLevelOperationMode.fromName(mode)) == RowLevelOperationMode.COPY_ON_WRITE;
  }

  /**
   * The tags of the current ancestry's snapshots by sequence number (the version), as their
   * summaries carry them ({@link SnapshotPositions#TAG_PREFIX}).
   */
  private ChangeSet.TagReader tagsBySequence() {
    Map<Long, Map<String, String>> tags = new HashMap<>();
    return version -> tags.computeIfAbsent(version, this::tagsOf);
  }

  private Map<String, String> tagsOf(long sequenceNumber) {
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      if (snapshot.sequenceNumber() == sequenceNumber) {
        Map<String, String> tags = new HashMap<>();
        snapshot.summary().forEach((key, value) -> {
          if (key.startsWith(SnapshotPositions.TAG_PREFIX)) {
            tags.put(key.substring(SnapshotPositions.TAG_PREFIX.length()), value);
          }
        });
        return tags;
      }
      if (snapshot.sequenceNumber() < sequenceNumber) {
        break;
      }
    }
    return Map.of();
  }

  private void checkDecidedUnder(ChangeSet changes) throws MovedRowsException {
    Map<String, String> properties = table.properties();
    for (Map.Entry<String, String> property : changes.decidedUnder().entrySet()) {
      String now = properties.get(property.getKey());
      if (!Objects.equals(now, property.getValue())) {
        throw new MovedRowsException(table.location(), "the change set was decided while table property " + property.getKey()
            + " was " + property.getValue() + ", and it is now " + now);
      }
    }
  }

  /**
   * Writes {@code rows} (of the table schema) into new data files of the table's partition spec, one
   * rolling writer per partition, noting where each row went: the key index takes the new rows from
   * there, without reading the files back.
   */
  private NewRows write(List<Row> rows) throws IOException {
    if (rows.isEmpty()) {
      return NewRows.NONE;
    }
    GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET)
        .dataSchema(table.schema()).build();
    OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 0).format(FileFormat.PARQUET)
        .operationId(UUID.randomUUID().toString()).build();
    long targetSize = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    PartitionSpec spec = table.spec();
    PartitionKey partition = new PartitionKey(spec, table.schema());
    InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
    Map<StructLike, RollingDataWriter<Record>> byPartition = StructLikeMap.create(spec.partitionType());
    String[] files = new String[rows.size()];
    long[] positions = new long[rows.size()];
    List<DataFile> written = new ArrayList<>();
    try {
      for (int i = 0; i < rows.size(); i++) {
        Record record = IcebergRows.toRecord(table.schema().asStruct(), rows.get(i));
        partition.partition(wrapper.wrap(record));
        RollingDataWriter<Record> writer = byPartition.get(partition);
        if (writer == null) {
          StructLike key = partition.copy();
          writer = new RollingDataWriter<>(writers, outputs, table.io(), targetSize, spec, spec.isPartitioned() ? key : null);
          byPartition.put(key, writer);
        }
        files[i] = writer.currentFilePath().toString(); // the writer rolls after a write, so the row lands here
        positions[i] = writer.currentFileRows();
        writer.write(record);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      for (RollingDataWriter<Record> writer : byPartition.values()) {
        writer.close();
        written.addAll(writer.result().dataFiles());
      }
    }
    return new NewRows(written, files, positions);
  }

  /**
   * The data files a commit adds, and for each row written the file and position it went to.
   *
   * @param files the data files
   * @param rowFiles per row (in the order written), the location of its file
   * @param rowPositions per row, its position in that file
   */
  record NewRows(List<DataFile> files, String[] rowFiles, long[] rowPositions) {
    static final NewRows NONE = new NewRows(List.of(), new String[0], new long[0]);
  }

  private void discard(List<DataFile> files) {
    files.forEach(file -> table.io().deleteFile(file.location()));
  }

  private long committedVersion() {
    Snapshot current = table.currentSnapshot();
    return current == null ? 0 : current.sequenceNumber();
  }
}
