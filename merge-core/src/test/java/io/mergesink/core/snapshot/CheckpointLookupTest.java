package io.mergesink.core.snapshot;

import static io.mergesink.core.testing.SnapshotAssertions.assertSameState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.Fixtures;
import io.mergesink.core.log.LastCheckpoint;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On local storage the loader finds the log after {@code _last_checkpoint} by looking file names up
 * ({@link LogListing#probe}) instead of listing the directory. Every case must give the snapshot a
 * listing gives (the loader over {@link HadoopStorage}, which lists) and the version and txns Delta
 * Kernel reads.
 */
class CheckpointLookupTest {
  private static final String APP = "lookup-app:t:0";
  private static final StructType SCHEMA = StructType.of(new StructField("id", PrimitiveType.LONG, false));
  /** Commits after version 0 in {@link #table}; with a checkpoint every {@link #INTERVAL} versions the hint is at 9. */
  private static final int COMMITS = 11;
  private static final int INTERVAL = 3;

  private final LocalStorage storage = new LocalStorage();
  private final SnapshotLoader lookups = new SnapshotLoader(storage);
  private final SnapshotLoader listing = new SnapshotLoader(HadoopStorage.withDefaults());
  private final ExecutorService pool = Executors.newSingleThreadExecutor();

  @TempDir Path dir;

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  @Test
  void localStorageLooksUp() {
    assertThat(storage.prefersLookupsToListing()).isTrue();
    assertThat(HadoopStorage.withDefaults().prefersLookupsToListing()).isFalse();
  }

  @Test
  void sparkTableFromItsHintedCheckpoint() throws Exception {
    String root = Fixtures.copy("dv-table", dir).toString();

    Snapshot snapshot = lookups.latest(root);

    assertThat(snapshot.lastCheckpointVersion()).hasValue(5);
    assertSameAsListing(snapshot, listing.latest(root));
    assertMatchesKernel(root, snapshot, Map.of("fixture-app:orders:0", 45L, "fixture-app:orders:1", 7L));
  }

  @Test
  void freshHint() throws Exception {
    String root = table("fresh");

    Snapshot snapshot = lookups.latest(root);

    assertThat(snapshot.version()).isEqualTo(COMMITS);
    assertThat(snapshot.lastCheckpointVersion()).hasValue(9);
    assertThat(snapshot.files()).hasSize(COMMITS);
    assertSameAsListing(snapshot, listing.latest(root));
    assertMatchesKernel(root, snapshot, Map.of(APP, (long) COMMITS));
  }

  @Test
  void staleHintStillFindsNewerCheckpoints() throws Exception {
    String root = table("stale");
    new LastCheckpoint(3, 0, null, null).write(storage, root);

    Snapshot snapshot = lookups.latest(root);

    assertThat(snapshot.lastCheckpointVersion()).as("6 and 9 found by name").hasValue(9);
    assertSameAsListing(snapshot, listing.latest(root));
    assertMatchesKernel(root, snapshot, Map.of(APP, (long) COMMITS));
  }

  /** Delta Kernel refuses both tables ("Missing checkpoint at version N"); MergeSink lists the log and reads them. */
  @Test
  void missingOrIncompleteHintedCheckpointFallsBackToListing() throws Exception {
    String root = table("missing");
    Files.delete(Path.of(LogPaths.checkpointFile(root, 9)));

    Snapshot snapshot = lookups.latest(root);

    assertThat(snapshot.lastCheckpointVersion()).as("the listing from 0 finds 6").hasValue(6);
    assertSameAsListing(snapshot, listing.latest(root));

    new LastCheckpoint(6, 0, 2, null).write(storage, root);
    Files.move(Path.of(LogPaths.checkpointFile(root, 6)), Path.of(LogPaths.checkpointPartFile(root, 6, 1, 2)));
    Snapshot withHalfACheckpoint = lookups.latest(root);

    assertThat(withHalfACheckpoint.lastCheckpointVersion()).as("part 2 of 2 is missing").hasValue(3);
    assertSameAsListing(withHalfACheckpoint, listing.latest(root));
    assertThat(withHalfACheckpoint.txnVersion(APP)).hasValue(COMMITS);
  }

  @Test
  void multiPartCheckpointNamedByTheHint() throws Exception {
    String root = table("multi-part");
    Files.move(Path.of(LogPaths.checkpointFile(root, 9)), Path.of(LogPaths.checkpointPartFile(root, 9, 1, 1)));
    new LastCheckpoint(9, 0, 1, null).write(storage, root);

    Snapshot snapshot = lookups.latest(root);

    assertThat(snapshot.lastCheckpointVersion()).hasValue(9);
    assertSameAsListing(snapshot, listing.latest(root));
    assertMatchesKernel(root, snapshot, Map.of(APP, (long) COMMITS));
  }

  @Test
  void newerMultiPartCheckpointMissedByAStaleHintCostsCommitsNotState() throws Exception {
    String root = table("stale-multi-part");
    Files.move(Path.of(LogPaths.checkpointFile(root, 9)), Path.of(LogPaths.checkpointPartFile(root, 9, 1, 1)));
    new LastCheckpoint(6, 0, null, null).write(storage, root);

    Snapshot snapshot = lookups.latest(root);
    Snapshot listed = listing.latest(root);

    assertThat(snapshot.lastCheckpointVersion()).as("a multi-part name cannot be guessed").hasValue(6);
    assertThat(listed.lastCheckpointVersion()).hasValue(9);
    assertSameState(snapshot, listed);
    assertMatchesKernel(root, snapshot, Map.of(APP, (long) COMMITS));
  }

  @Test
  void everyVersionAsListed() throws Exception {
    String root = table("versions");

    for (long version = 0; version <= COMMITS; version++) {
      assertSameAsListing(lookups.atVersion(root, version), listing.atVersion(root, version));
    }
    assertThatThrownBy(() -> lookups.atVersion(root, COMMITS + 1))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("no version " + (COMMITS + 1))
        .hasMessageContaining("latest is " + COMMITS);
  }

  @Test
  void lookupsCannotSeePastAGapThatAListingReports() throws Exception {
    String root = table("gap");
    Files.delete(Path.of(LogPaths.commitFile(root, 10)));

    assertThat(lookups.latest(root).version()).as("the log reads as ending at the gap").isEqualTo(9);
    assertThatThrownBy(() -> listing.latest(root))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("00000000000000000010.json is missing after checkpoint 9");
  }

  @Test
  void readersDuringCommitsAndCheckpointsSeeConsistentVersions() throws Exception {
    int commits = 60;
    DeltaTable table = create("concurrent");
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults().withCheckpointInterval(2));
    Future<?> writing = pool.submit(() -> {
      for (long version = 1; version <= commits; version++) {
        writer.commit(change(writer, version));
      }
      return null;
    });

    long seen = 0;
    while (!writing.isDone()) {
      seen = assertConsistent(lookups.latest(table.root()), seen);
    }
    writing.get();

    Snapshot last = lookups.latest(table.root());
    assertConsistent(last, seen);
    assertThat(last.version()).isEqualTo(commits);
    assertSameAsListing(last, listing.latest(table.root()));
    assertMatchesKernel(table.root(), last, Map.of(APP, (long) commits));
  }

  /** A snapshot of a table whose commit v added one file and set the txn to v; returns its version. */
  private static long assertConsistent(Snapshot snapshot, long seen) {
    assertThat(snapshot.version()).as("versions never go back").isGreaterThanOrEqualTo(seen);
    assertThat(snapshot.files()).hasSize((int) snapshot.version());
    if (snapshot.version() > 0) {
      assertThat(snapshot.txnVersion(APP)).hasValue(snapshot.version());
    }
    return snapshot.version();
  }

  /** A table written by MergeSink's writer: version 0, then {@link #COMMITS} commits, a checkpoint every {@link #INTERVAL}. */
  private String table(String name) throws Exception {
    DeltaTable table = create(name);
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults().withCheckpointInterval(INTERVAL));
    for (long version = 1; version <= COMMITS; version++) {
      writer.commit(change(writer, version));
    }
    assertThat(LastCheckpoint.read(storage, table.root())).map(LastCheckpoint::version).hasValue(9L);
    return table.root();
  }

  private DeltaTable create(String name) throws IOException {
    DeltaTable table = DeltaTable.forPath(storage, dir.resolve(name).toString());
    table.createIfAbsent(TableSpec.append(SCHEMA, Map.of()));
    return table;
  }

  private static ChangeSet change(TableWriter writer, long version) {
    return ChangeSet.builder().upsert(Row.of(version)).txn(APP, writer.snapshot().txnVersion(APP), version).build();
  }

  private static void assertSameAsListing(Snapshot actual, Snapshot listed) {
    assertSameState(actual, listed);
    assertThat(actual.lastCheckpointVersion()).isEqualTo(listed.lastCheckpointVersion());
  }

  private static void assertMatchesKernel(String root, Snapshot snapshot, Map<String, Long> txns) {
    assertThat(KernelTables.latestVersion(root)).isEqualTo(snapshot.version());
    txns.forEach((app, version) -> {
      assertThat(snapshot.txnVersion(app)).hasValue(version);
      assertThat(KernelTables.txnVersion(root, app)).hasValue(version);
    });
  }
}
