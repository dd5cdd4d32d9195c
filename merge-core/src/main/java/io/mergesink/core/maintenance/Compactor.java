package io.mergesink.core.maintenance;

import io.mergesink.core.commit.CommitConflictException;
import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.commit.Committer;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.commit.Transaction;
import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.Cleanup;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.RemoveFile;
import io.mergesink.core.parquet.DataFileReader;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.rowtracking.MaterializedColumns;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.roaringbitmap.longlong.Roaring64NavigableMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites small and DV-dense files (chosen by {@link CompactionPlanner}) into files of the target
 * size without their deleted rows, and commits {@code remove} + {@code add} with
 * {@code dataChange=false} (as Delta's {@code OPTIMIZE}, which purges DVs).
 *
 * <p>Safe against concurrent writers: the commit names the inputs as its read files, so when a
 * sink commit marked more rows of an input deleted (or removed it) first, the {@link Committer}
 * refuses to publish and the run's {@link Transaction} deletes the outputs and plans again on the
 * new snapshot, at most {@link CompactionOptions#maxAttempts()} times in all. A delete is therefore never lost: the rows it
 * deleted are either already excluded from the rewrite or the rewrite does not happen. The
 * commit holds no {@code txn}, so Kafka offsets never move and no writer fences it. Concurrent appends do not interfere.
 *
 * <p>Not thread-safe; one compactor per table and task. Runs within the budget of its options.
 */
public final class Compactor {
  public static final String OPERATION = "OPTIMIZE";
  /** Commit versions a run may lose to unrelated concurrent commits (appends, other files) before giving up. */
  private static final int MAX_COMMIT_RACES = 100;
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private final Storage storage;
  private final SnapshotLoader loader;
  private final CompactionOptions options;
  private final CompactionPlanner planner;
  private final Committer committer;
  private final DeletionVectorStore deletionVectors;

  public Compactor(Storage storage, CompactionOptions options) {
    this(storage, options, CommitHook.NONE);
  }

  /** @param hook test seam called before the commit file is published (e.g. to race a sink commit) */
  public Compactor(Storage storage, CompactionOptions options, CommitHook hook) {
    this.storage = storage;
    this.loader = new SnapshotLoader(storage);
    this.options = options;
    this.planner = new CompactionPlanner(options);
    this.committer = new Committer(storage, loader, MAX_COMMIT_RACES, hook);
    this.deletionVectors = new DeletionVectorStore(storage);
  }

  /**
   * What a run on {@code snapshot} would rewrite; nothing is written.
   *
   * @throws io.mergesink.core.protocol.UnsupportedTableException when MergeSink cannot write the table,
   *     as {@link #compact} would
   */
  public CompactionPlan plan(Snapshot snapshot) {
    ProtocolSupport.checkWritable(snapshot.tableRoot(), snapshot.protocol(), snapshot.metadata());
    return planner.plan(snapshot);
  }

  /**
   * Compacts {@code snapshot} (usually the latest; concurrent commits after it are handled).
   *
   * @throws io.mergesink.core.protocol.UnsupportedTableException when MergeSink cannot write the table
   * @throws CommitConflictException when concurrent commits kept winning the commit race; the
   *     outputs were deleted and nothing was committed
   * @throws IOException when reading or writing fails; outputs written so far are deleted when
   *     possible, otherwise vacuum removes them
   */
  public CompactionResult compact(Snapshot snapshot) throws IOException {
    ProtocolSupport.checkWritable(snapshot.tableRoot(), snapshot.protocol(), snapshot.metadata());
    Transaction.Unfenced<Planned> outcome = new Transaction(storage, committer, options.maxAttempts()).runWithoutTxns(snapshot,
        new Transaction.Planner<>() {
          @Override
          public Optional<Transaction.Plan<Planned>> plan(Snapshot base) throws IOException {
            CompactionPlan plan = planner.plan(base);
            if (plan.isEmpty()) {
              return Optional.empty();
            }
            Rewrite rewrite = rewrite(base, plan);
            return Optional.of(Transaction.Plan.of(rewrite.staged(), new Planned(plan, rewrite)));
          }

          @Override
          public void invalidated(Snapshot latest, String reason) {
            LOG.info("Table {}: compaction planning again, {}", latest.tableRoot(), reason);
          }
        });
    if (outcome instanceof Transaction.Unchanged<Planned> unchanged) {
      return new CompactionResult.NothingToCompact(unchanged.snapshot().version());
    }
    if (outcome instanceof Transaction.GaveUp<Planned> gaveUp) {
      return new CompactionResult.GaveWay(gaveUp.plans(), gaveUp.reason());
    }
    Transaction.Committed<Planned> committed = (Transaction.Committed<Planned>) outcome;
    Rewrite rewrite = committed.value().rewrite();
    LOG.info("Table {}: compacted {} files into {} at version {}", snapshot.tableRoot(), rewrite.filesRemoved(), rewrite.adds().size(),
        committed.version());
    return new CompactionResult.Compacted(committed.version(), rewrite.filesRemoved(), rewrite.adds().size(), rewrite.rowsWritten(),
        rewrite.rowsPurged(), rewrite.bytesRemoved(), rewrite.bytesAdded(), committed.value().plan().deferredBins() + rewrite.binsLeft(),
        committed.replans());
  }

  private Rewrite rewrite(Snapshot snapshot, CompactionPlan plan) throws IOException {
    long start = System.nanoTime();
    DataLayout layout = DataLayout.of(snapshot);
    Optional<MaterializedColumns> materialized = MaterializedColumns.of(snapshot.protocol(), snapshot.metadata());
    List<Action> removes = new ArrayList<>();
    List<AddFile> adds = new ArrayList<>();
    List<String> written = new ArrayList<>();
    Set<String> readFiles = new HashSet<>();
    long now = System.currentTimeMillis();
    long rowsWritten = 0;
    long rowsPurged = 0;
    long bytesRemoved = 0;
    int binsDone = 0;
    try {
      for (CompactionBin bin : plan.bins()) {
        if (binsDone > 0 && System.nanoTime() - start > options.maxDuration().toNanos()) {
          break;
        }
        BinWriter writer = new BinWriter(storage, snapshot.tableRoot(), directoryOf(bin.files().get(0)),
            materialized.map(columns -> columns.appendTo(layout.dataSchema())).orElse(layout.dataSchema()), layout.dataSchema(),
            options.parquet(), bin);
        try {
          for (AddFile file : bin.files()) {
            rowsWritten += copyLiveRows(snapshot.tableRoot(), file, layout, materialized.isPresent(), writer);
            rowsPurged += file.deletedRecords();
            bytesRemoved += file.size();
            removes.add(file.toRemove(now, false));
            readFiles.add(file.path());
          }
          adds.addAll(writer.finish());
        } finally {
          writer.abort();
          written.addAll(writer.writtenPaths());
        }
        binsDone++;
      }
    } catch (IOException | RuntimeException e) {
      Cleanup.deleteQuietly(storage, written);
      throw e;
    }
    long bytesAdded = adds.stream().mapToLong(AddFile::size).sum();
    List<Action> actions = new ArrayList<>(removes);
    actions.addAll(adds);
    Map<String, String> metrics = new LinkedHashMap<>();
    metrics.put("numRemovedFiles", Integer.toString(removes.size()));
    metrics.put("numAddedFiles", Integer.toString(adds.size()));
    metrics.put("numRemovedBytes", Long.toString(bytesRemoved));
    metrics.put("numAddedBytes", Long.toString(bytesAdded));
    metrics.put("numOutputRows", Long.toString(rowsWritten));
    metrics.put("numDeletionVectorsRemoved", Long.toString(removes.stream()
        .filter(a -> ((RemoveFile) a).deletionVector() != null).count()));
    metrics.put("numPurgedRows", Long.toString(rowsPurged));
    StagedCommit staged = new StagedCommit(actions, readFiles, written, OPERATION, metrics);
    return new Rewrite(staged, adds, removes.size(), rowsWritten, rowsPurged, bytesRemoved, bytesAdded, plan.bins().size() - binsDone);
  }

  /**
   * Copies the data columns of the rows of {@code file} its DV leaves live, as they are (physical
   * names, widened to the table's types); returns how many. A bin's files share one partition.
   * With {@code preserveRowIds} (the rows of {@code writer} end in the materialized row tracking
   * columns), each row is written with its stable row id and commit version, which it keeps.
   */
  private long copyLiveRows(String root, AddFile file, DataLayout layout, boolean preserveRowIds, BinWriter writer) throws IOException {
    Roaring64NavigableMap deleted = file.deletionVector() == null ? null : deletionVectors.read(root, file.deletionVector());
    long rowIndex = 0;
    long copied = 0;
    int dataColumns = layout.dataSchema().size();
    try (CloseableIterator<Row> rows = DataFileReader.read(storage, LogPaths.resolve(root, file.path()), writer.schema(),
        layout.match())) {
      while (rows.hasNext()) {
        Row row = rows.next();
        if (deleted == null || !deleted.contains(rowIndex)) {
          writer.write(preserveRowIds ? withStableValues(row, dataColumns, file, rowIndex) : row);
          copied++;
        }
        rowIndex++;
      }
    }
    long expected = FileHealth.liveRows(file);
    if (expected != AddFile.UNKNOWN_RECORDS && expected != copied) {
      throw new IOException("table " + root + ": data file " + file.path() + " should hold " + expected
          + " live rows (numRecords minus DV cardinality), found " + copied + "; not compacting it");
    }
    return copied;
  }

  /** {@code stored} (data columns, then the materialized columns as stored) with the row's stable row id and commit version materialized. */
  private static Row withStableValues(Row stored, int dataColumns, AddFile file, long rowIndex) {
    Object[] values = stored.toArray();
    values[dataColumns] = MaterializedColumns.stableRowId((Long) values[dataColumns], file, rowIndex);
    values[dataColumns + 1] = MaterializedColumns.stableCommitVersion((Long) values[dataColumns + 1], file);
    return Row.of(values);
  }

  /** The decoded directory of a relative file path ("" at the root); absolute paths put outputs at the root. */
  private static String directoryOf(AddFile file) {
    String decoded = file.decodedPath();
    int slash = decoded.lastIndexOf('/');
    if (slash < 0 || decoded.startsWith("/") || decoded.contains(":")) {
      return "";
    }
    return decoded.substring(0, slash);
  }

  /** A plan and its rewrite, staged for commit. */
  private record Planned(CompactionPlan plan, Rewrite rewrite) {}

  private record Rewrite(StagedCommit staged, List<AddFile> adds, int filesRemoved, long rowsWritten, long rowsPurged, long bytesRemoved,
      long bytesAdded, int binsLeft) {}
}
