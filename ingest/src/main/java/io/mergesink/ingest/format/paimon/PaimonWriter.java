package io.mergesink.ingest.format.paimon;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.ChangeSetRealignment;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.changes.MovedRowsException;
import io.mergesink.core.commit.CommitConflictException;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeCounts;
import io.mergesink.core.merge.UnchangedFiller;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lands change sets in one Paimon table through Paimon's writer and committer (docs/paimon.md, "A
 * commit"): upserts as {@code +I} rows, deletes as {@code -D} rows of their key, into the LSM tree
 * of each row's bucket; Paimon's lookup finds the rows they replace and marks them in deletion
 * vectors when it compacts level 0, which each commit waits for. The positions are recorded and
 * compared-and-set by a {@link PositionGuard} where Paimon publishes the snapshot.
 *
 * <p>Commits are idempotent: one commit user per writer, one commit identifier per change set, and
 * Paimon's {@code filterAndCommit} skips an identifier a snapshot of the user already holds. The
 * writer's view of each bucket (its files, its sequence numbers) is restored from the snapshot it
 * was opened on, so a writer is opened again whenever another writer committed since its last
 * commit, or the schema changed. Not thread-safe: one writer per table per task.
 */
final class PaimonWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PaimonWriter.class);
  private static final int MAX_ATTEMPTS = 10;
  /** Paimon retries no publication itself: a refused one must end the commit at once (see {@link PositionGuard}). */
  private static final Map<String, String> WRITER_OPTIONS = Map.of("commit.max-retries", "0");

  /** Reads the live rows of keys, for upserts whose unchanged columns take the values of a key's row. */
  @FunctionalInterface
  interface CurrentRows {
    Map<Row, Row> of(List<Row> keys) throws IOException;
  }

  private final String commitUser;
  private final List<String> keyColumns;
  private final String spillDirectory;
  private final PositionGuard guard = new PositionGuard();
  private FileStoreTable table;
  private TableWriteImpl<?> write;
  private TableCommitImpl committer;
  private IOManager io;
  /** The deletion vectors of the buckets as the open write knows them. */
  private BucketDeletionVectors deletionVectors;
  /** The snapshot the open write follows: the last one it committed, with nothing of another writer since. */
  private long follows = -1;
  private long identifier;

  /**
   * @param commitUserPrefix names the writer's commit user, to which a random suffix is added
   * @param keyColumns the primary key of the table; empty for a table without one (rows are only added)
   * @param spillDirectory where Paimon's lookup and sort spill
   */
  PaimonWriter(String commitUserPrefix, List<String> keyColumns, String spillDirectory) {
    this.commitUser = commitUserPrefix + "-" + UUID.randomUUID();
    this.keyColumns = List.copyOf(keyColumns);
    this.spillDirectory = spillDirectory;
  }

  /**
   * Commits {@code changes} with their positions to {@code latest}, the table as last loaded.
   *
   * @throws FencedException a position is not where the change set expects it; nothing was committed
   * @throws MovedRowsException the table's options are not those the change set was decided under
   * @throws CommitConflictException concurrent commits kept winning
   */
  CommitResult commit(FileStoreTable latest, ChangeSet changes, CurrentRows current) throws IOException, FencedException {
    long started = System.nanoTime();
    String location = latest.location().toString();
    StructType schema = PaimonSchemas.fromPaimon(latest.rowType());
    ChangeSet aligned = ChangeSetRealignment.to(location, schema, changes);
    checkDecidedUnder(location, latest.options(), aligned);
    if (aligned.truncate() || !aligned.appends().isEmpty() || !aligned.removals().isEmpty()) {
      throw new InvalidChangeSetException(location, "Paimon tables take upserts and deletes only (no truncate, history"
          + " versions or removals by position; docs/paimon.md)");
    }
    List<Row> rows = new ArrayList<>();
    List<RowKind> kinds = new ArrayList<>();
    if (keyColumns.isEmpty()) {
      aligned.upserts().forEach(row -> add(rows, kinds, UnchangedFiller.withNulls(row), RowKind.INSERT));
    } else {
      int[] keyOrdinals = keyColumns.stream().mapToInt(schema::indexOf).toArray();
      KeyedChanges keyed = KeyedChanges.of(location, schema, keyOrdinals, Optional.empty(), aligned);
      boolean partialUpdate = latest.coreOptions().mergeEngine() == CoreOptions.MergeEngine.PARTIAL_UPDATE;
      filled(keyed, current, partialUpdate).forEach(row -> add(rows, kinds, row, RowKind.INSERT));
      Map<Row, Object> deleteSequences = deleteSequences(aligned);
      int sequenceColumn = sequenceColumn(latest, schema);
      for (Row key : keyed.deleteKeys()) {
        Object[] values = new Object[schema.size()];
        for (int i = 0; i < keyOrdinals.length; i++) {
          values[keyOrdinals[i]] = key.get(i);
        }
        if (sequenceColumn >= 0) {
          values[sequenceColumn] = deleteSequences.get(key);
        }
        add(rows, kinds, Row.of(values), RowKind.DELETE);
      }
    }
    long id = ++identifier;
    for (int attempt = 1; ; attempt++) {
      Snapshot base = latest.snapshotManager().latestSnapshot();
      open(latest, base);
      List<CommitMessage> messages = write(rows, kinds, id);
      guard.arm(aligned);
      deletionVectors.arm(messages);
      try {
        ManifestCommittable committable = new ManifestCommittable(id);
        messages.forEach(committable::addFileCommittable);
        committer.filterAndCommitMultiple(List.of(committable));
      } catch (RuntimeException e) {
        if (guard.invalidated() != null) {
          committer.abort(messages);
          close();
          throw guard.invalidated();
        }
        if (guard.fenced() != null) {
          committer.abort(messages);
          close();
          String fenced = guard.fenced();
          throw new FencedException(location, fenced, guard.fencedVersion(), aligned.txns().get(fenced).expected(), guard.fencedAt());
        }
        close();
        if (!guard.moved()) {
          if (attempt == MAX_ATTEMPTS) {
            throw new CommitConflictException(location, attempt, base == null ? 0 : base.id());
          }
          LOG.info("Paimon table {}: commit {} of {} did not land ({}); writing it again on the latest snapshot", location, id, commitUser,
              e.getMessage());
          continue;
        }
        // the change set landed with its positions, the compaction of the same commit did not (another writer compacted
        // the same bucket first): its level-0 rows are not visible to deletion-vector readers until compacted
        LOG.info("Paimon table {}: commit {} landed, its compaction did not ({}); compacting its buckets again", location, id,
            e.getMessage());
        compactAgain(latest, messages);
      }
      follows = lastOwnSnapshot(latest.snapshotManager(), base);
      long version = Math.max(follows, latest.snapshotManager().latestSnapshotId());
      long deleted = kinds.stream().filter(kind -> kind == RowKind.DELETE).count();
      MergeCounts counts = new MergeCounts(rows.size() - deleted, deleted, newFiles(messages), 0, 0, 0);
      return new CommitResult(version, counts, attempt, attempt - 1, System.nanoTime() - started, false);
    }
  }

  /**
   * @throws MovedRowsException a table option the change set was decided under has another value
   *     now (a topic's keys started moving between partitions): nothing is written, decide again
   */
  private static void checkDecidedUnder(String location, Map<String, String> options, ChangeSet changes) throws MovedRowsException {
    for (Map.Entry<String, String> option : changes.decidedUnder().entrySet()) {
      String now = options.get(option.getKey());
      if (!Objects.equals(now, option.getValue())) {
        throw new MovedRowsException(location, "the change set was decided while table option " + option.getKey() + " was "
            + option.getValue() + ", and it is now " + now);
      }
    }
  }

  /** The sequences the deletes of {@code changes} name, by key. */
  private static Map<Row, Object> deleteSequences(ChangeSet changes) {
    Map<Row, Object> sequences = new HashMap<>();
    for (int i = 0; i < changes.deletes().size(); i++) {
      if (changes.deleteSequence(i) != null) {
        sequences.put(changes.deletes().get(i), changes.deleteSequence(i));
      }
    }
    return sequences;
  }

  /**
   * The index in {@code schema} of the column Paimon orders a key's rows by ({@code sequence.field}),
   * which a delete's row carries so that it does not remove a newer row; -1 when rows are ordered as
   * they arrive.
   *
   * @throws IllegalStateException the table orders by several columns, or by one it does not have
   */
  private static int sequenceColumn(FileStoreTable table, StructType schema) {
    List<String> fields = table.coreOptions().sequenceField();
    if (fields.isEmpty()) {
      return -1;
    }
    if (fields.size() > 1 || schema.indexOf(fields.get(0)) < 0) {
      throw new IllegalStateException("Paimon table " + table.location() + " orders its rows by " + fields + ": MergeSink writes tables"
          + " ordered by one column of theirs (docs/paimon.md)");
    }
    return schema.indexOf(fields.get(0));
  }

  /** The data files the writer flushed for {@code messages}, before compaction. */
  private static int newFiles(List<CommitMessage> messages) {
    return messages.stream().mapToInt(message -> ((CommitMessageImpl) message).newFilesIncrement().newFiles().size()).sum();
  }

  private static void add(List<Row> rows, List<RowKind> kinds, Row row, RowKind kind) {
    rows.add(row);
    kinds.add(kind);
  }

  /**
   * The upserts with their unchanged columns taken from their key's live row, else from their
   * previous key's. Under the {@code partial-update} merge engine Paimon keeps the values of the
   * columns a row leaves null: an unchanged column is null then, and a row is read only for an
   * upsert that changed its key (its values are those of another key's row).
   */
  private static List<Row> filled(KeyedChanges keyed, CurrentRows current, boolean partialUpdate) throws IOException {
    List<Row> filled = new ArrayList<>(keyed.upserts());
    if (!keyed.hasUnchangedValues()) {
      return filled;
    }
    if (partialUpdate) {
      for (int i = 0; i < filled.size(); i++) {
        if (keyed.previousKey(i) == null) {
          filled.set(i, UnchangedFiller.withNulls(filled.get(i)));
        }
      }
    }
    List<Row> keys = new ArrayList<>();
    for (int i = 0; i < filled.size(); i++) {
      if (UnchangedFiller.hasUnchanged(filled.get(i))) {
        keys.add(keyed.upsertKeys()[i]);
        if (keyed.previousKey(i) != null) {
          keys.add(keyed.previousKey(i));
        }
      }
    }
    if (keys.isEmpty()) {
      return filled;
    }
    Map<Row, Row> rows = current.of(keys);
    for (int i = 0; i < filled.size(); i++) {
      Row row = filled.get(i);
      if (UnchangedFiller.hasUnchanged(row)) {
        Row live = rows.get(keyed.upsertKeys()[i]);
        if (live == null && keyed.previousKey(i) != null) {
          live = rows.get(keyed.previousKey(i));
        }
        filled.set(i, UnchangedFiller.merge(row, live));
      }
    }
    return filled;
  }

  /** Opens a write on {@code latest} unless the open one follows {@code base} with the same schema. */
  private void open(FileStoreTable latest, Snapshot base) {
    long baseId = base == null ? 0 : base.id();
    if (write != null && follows == baseId && table.schema().id() == latest.schema().id()) {
      return;
    }
    close();
    deletionVectors = new BucketDeletionVectors(latest);
    table = FileStoreTableFactory.create(latest.fileIO(), latest.location(), latest.schema(), new Options(WRITER_OPTIONS),
        guard.around(latest.catalogEnvironment(), deletionVectors));
    io = IOManager.create(spillDirectory);
    write = table.newWrite(commitUser).withIOManager(io);
    write.withWriteRestore(deletionVectors);
    committer = table.newCommit(commitUser);
    follows = baseId;
  }

  /**
   * Compacts the buckets of {@code messages} with a new write on the latest snapshot, in a commit
   * that moves no position, again while it loses to other writers, up to {@value #MAX_ATTEMPTS}
   * times: rows left in level 0 are not read by deletion-vector readers until a commit compacts
   * them, and when the stream stops no other commit may come. When every attempt lost, the next
   * commit of those buckets compacts them (its lookup compaction takes every level-0 file of a
   * bucket).
   */
  private void compactAgain(FileStoreTable latest, List<CommitMessage> messages) throws IOException {
    for (int attempt = 1; ; attempt++) {
      long id = ++identifier;
      open(latest, latest.snapshotManager().latestSnapshot());
      guard.arm(Map.of(), Map.of());
      try {
        for (CommitMessage message : messages) {
          write.compact(message.partition(), message.bucket(), false);
        }
        ManifestCommittable committable = new ManifestCommittable(id);
        List<CommitMessage> compactions = write.prepareCommit(true, id);
        compactions.forEach(committable::addFileCommittable);
        deletionVectors.arm(compactions);
        committer.filterAndCommitMultiple(List.of(committable));
        return;
      } catch (RuntimeException e) {
        close();
        if (attempt == MAX_ATTEMPTS) {
          LOG.warn("Paimon table {}: compacting the buckets of a commit lost {} times; the next commit of each compacts it",
              latest.location(), attempt, e);
          return;
        }
        LOG.info("Paimon table {}: compaction {} of {} did not land ({}); compacting its buckets again on the latest snapshot",
            latest.location(), id, commitUser, e.getMessage());
      } catch (Exception e) {
        close();
        throw new IOException("compacting Paimon table " + latest.location() + " failed", e);
      }
    }
  }

  /** Writes the rows and prepares their commit, waiting for the compaction that moves level 0 up (the deletion vectors). */
  private List<CommitMessage> write(List<Row> rows, List<RowKind> kinds, long id) throws IOException {
    RowType rowType = table.rowType();
    try {
      for (int i = 0; i < rows.size(); i++) {
        write.write(PaimonRows.toPaimon(rowType, rows.get(i), kinds.get(i)));
      }
      return write.prepareCommit(true, id);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    } catch (Exception e) {
      close();
      throw new IOException("writing to Paimon table " + table.location() + " failed", e);
    }
  }

  /**
   * The last snapshot of this writer after {@code base} when every snapshot since is its own (the
   * open write follows it); -1 when another writer's came between, or Paimon expired one of them
   * (the next commit opens a new write).
   */
  private long lastOwnSnapshot(SnapshotManager snapshots, Snapshot base) {
    Long latestId = snapshots.latestSnapshotId();
    long from = base == null ? Snapshot.FIRST_SNAPSHOT_ID : base.id() + 1;
    if (latestId == null || write == null) {
      return -1;
    }
    for (long id = latestId; id >= from; id--) {
      if (!snapshots.snapshotExists(id) || !snapshots.snapshot(id).commitUser().equals(commitUser)) {
        return -1;
      }
    }
    return latestId;
  }

  /** Releases the write, its committer and its spill files; the next commit opens a new write. */
  @Override
  public void close() {
    try {
      if (write != null) {
        write.close();
      }
      if (committer != null) {
        committer.close();
      }
      if (io != null) {
        io.close();
      }
    } catch (Exception e) {
      throw new UncheckedIOException(new IOException("closing the writer of Paimon table " + table.location() + " failed", e));
    } finally {
      write = null;
      committer = null;
      io = null;
      deletionVectors = null;
      follows = -1;
    }
  }
}
