package io.mergesink.core.log;

import static io.mergesink.core.testing.SnapshotAssertions.assertSameState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.HadoopStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our checkpoint replaces the whole history: after deleting every commit, checksum and Spark
 * checkpoint at or before its version, both our loader and Delta Kernel see the same table.
 */
class CheckpointWriterTest {
  private static final List<String> DV_APPS = List.of("fixture-app:orders:0", "fixture-app:orders:1");

  /** The commitInfo timestamp of dv-table's last commit. */
  private static final long LAST_COMMIT_MILLIS = 1796000448190L;

  private final HadoopStorage storage = HadoopStorage.withDefaults();
  private final SnapshotLoader loader = new SnapshotLoader(storage);

  @TempDir
  Path tmp;

  @Test
  void dvTableCheckpointReplacesHistory() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    KernelCheck.View before = KernelCheck.read(table.toString(), "id", DV_APPS);
    Snapshot ours = loader.latest(table.toString());

    CheckpointWriter.write(storage, table.toString(), ours, LAST_COMMIT_MILLIS);
    deleteHistoryBefore(table, ours.version());

    KernelCheck.View after = KernelCheck.read(table.toString(), "id", DV_APPS);
    assertThat(before.keys()).hasSize(883);
    assertThat(before.txns()).isEqualTo(Map.of("fixture-app:orders:0", 45L, "fixture-app:orders:1", 7L));
    assertThat(after).isEqualTo(before);

    deleteCommit(table, ours.version());
    Snapshot reloaded = loader.latest(table.toString());
    assertThat(reloaded.lastCheckpointVersion()).hasValue(6);
    assertSameState(reloaded, ours);
    assertThat(LastCheckpoint.read(storage, table.toString()))
        .as("protocol, metaData, 2 txns, 7 adds, every tombstone (none expired at the last commit)")
        .hasValue(new LastCheckpoint(6, 2 + 2 + 7 + ours.tombstones().size(), null, 7L));
    assertThat(reloaded.tombstones()).containsExactlyInAnyOrderElementsOf(ours.tombstones().stream()
        .map(r -> new RemoveFile(r.path(), r.deletionTimestamp(), false, r.extendedFileMetadata(),
            r.partitionValues(), r.size(), null, r.deletionVector(), null))
        .toList());
  }

  @Test
  void typesTableCheckpointReplacesHistory() throws IOException {
    Path table = Fixtures.copy("types-table", tmp);
    KernelCheck.View before = KernelCheck.read(table.toString(), "id", List.of());
    Snapshot ours = loader.latest(table.toString());

    CheckpointWriter.write(storage, table.toString(), ours);
    deleteHistoryBefore(table, ours.version());

    KernelCheck.View after = KernelCheck.read(table.toString(), "id", List.of());
    assertThat(before.keys()).containsExactly("1", "2");
    assertThat(after).isEqualTo(before);
    assertThat(after.readerFeatures()).contains(Protocol.TIMESTAMP_NTZ, Protocol.DELETION_VECTORS);
    deleteCommit(table, ours.version());
    Snapshot reloaded = loader.latest(table.toString());
    assertSameState(reloaded, ours);
    assertThat(reloaded.schema()).isEqualTo(ours.schema());
  }

  @Test
  void checkpointBeforeTheTailThenNewCommitsStillReplay() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    String root = table.toString();
    Snapshot v4 = loader.atVersion(root, 4);

    CheckpointWriter.write(storage, root, v4);
    deleteHistoryBefore(table, 4);

    Snapshot latest = loader.latest(root);
    assertThat(latest.lastCheckpointVersion()).hasValue(4);
    assertThat(latest.version()).isEqualTo(6);
    assertThat(latest.files()).hasSize(7);
    assertThat(KernelCheck.read(root, "id", DV_APPS).keys()).hasSize(883);
  }

  @Test
  void multiPartCheckpointIsFoundAndReadInPartOrder() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    String root = table.toString();
    Snapshot v4 = loader.atVersion(root, 4);
    List<Action> state = new java.util.ArrayList<>();
    state.add(v4.protocol());
    state.add(v4.metadata());
    state.addAll(v4.transactions().values());
    state.addAll(v4.files().values());
    String part1 = root + "/_delta_log/00000000000000000004.checkpoint.0000000001.0000000002.parquet";
    String part2 = root + "/_delta_log/00000000000000000004.checkpoint.0000000002.0000000002.parquet";
    storage.writeIfAbsent(part1, CheckpointWriter.toParquet(state.subList(0, 4), CheckpointSchema.SCHEMA));
    new LastCheckpoint(4, state.size(), 2, null).write(storage, root);
    deleteHistoryBefore(table, 4);
    Files.delete(table.resolve("_delta_log/00000000000000000004.json"));

    assertThatThrownBy(() -> loader.latest(root))
        .as("an incomplete multi-part checkpoint does not count")
        .isInstanceOf(io.mergesink.core.snapshot.InvalidTableException.class)
        .hasMessageContaining("00000000000000000000.json is missing and no checkpoint precedes it");

    storage.writeIfAbsent(part2, CheckpointWriter.toParquet(state.subList(4, state.size()), CheckpointSchema.SCHEMA));
    Snapshot latest = loader.latest(root);
    assertThat(latest.lastCheckpointVersion()).hasValue(4);
    assertThat(latest.version()).isEqualTo(6);
    assertThat(latest.files()).hasSize(7);
    assertThat(latest.txnVersions()).isEqualTo(Map.of("fixture-app:orders:0", 45L, "fixture-app:orders:1", 7L));
  }

  @Test
  void expiredTombstonesAreDropped() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    Snapshot ours = loader.latest(table.toString());
    long longAfterEveryRemove = LAST_COMMIT_MILLIS + TimeUnit.DAYS.toMillis(8);

    CheckpointWriter.write(storage, table.toString(), ours, longAfterEveryRemove);
    deleteHistoryBefore(table, ours.version());
    deleteCommit(table, ours.version());

    Snapshot reloaded = loader.latest(table.toString());
    assertThat(ours.tombstones()).isNotEmpty();
    assertThat(reloaded.tombstones()).isEmpty();
    assertThat(reloaded.files()).hasSize(7);
  }

  @Test
  void readsSparkCheckpointLikeTheJsonItSummarizes() throws IOException {
    Path table = Fixtures.table("dv-table");
    List<Action> actions = CheckpointReader.read(storage, table.toString(),
        List.of(table.resolve("_delta_log/00000000000000000005.checkpoint.parquet").toString()));

    assertThat(actions).hasSize(20);
    assertThat(actions).filteredOn(a -> a instanceof AddFile).hasSize(6);
    assertThat(actions).filteredOn(a -> a instanceof SetTransaction).hasSize(2);
    assertThat(actions).filteredOn(a -> a instanceof Protocol).singleElement()
        .isEqualTo(new Protocol(3, 7, java.util.Set.of("deletionVectors"),
            java.util.Set.of("deletionVectors", "invariants", "appendOnly")));
    assertThat(actions).filteredOn(a -> a instanceof Metadata).singleElement()
        .satisfies(m -> assertThat(((Metadata) m).configuration()).containsEntry("delta.checkpointInterval", "5"));
  }

  /**
   * Deletes every commit before {@code version}, every Spark version checksum up to it and every
   * checkpoint of another version. Delta Kernel (like Spark's log cleanup) insists that the commit
   * at the checkpoint's version stays; {@link #deleteCommit} removes it for our own loader.
   */
  private static void deleteHistoryBefore(Path table, long version) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        String bare = name.startsWith(".") ? name.substring(1).replaceFirst("\\.crc$", "") : name;
        OptionalLong commit = LogPaths.commitVersion(bare);
        OptionalLong checkpoint = LogPaths.checkpointVersion(bare);
        OptionalLong checksum = bare.matches("\\d{20}\\.crc")
            ? OptionalLong.of(Long.parseLong(bare.substring(0, LogPaths.VERSION_DIGITS))) : OptionalLong.empty();
        if ((commit.isPresent() && commit.getAsLong() < version)
            || (checksum.isPresent() && checksum.getAsLong() <= version)
            || (checkpoint.isPresent() && checkpoint.getAsLong() != version)) {
          Files.delete(file);
        }
      }
    }
    try (Stream<Path> left = Files.list(table.resolve("_delta_log"))) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .filteredOn(n -> LogPaths.commitVersion(n).isPresent() || LogPaths.checkpointVersion(n).isPresent())
          .allSatisfy(n -> assertThat(LogPaths.commitVersion(n).orElse(version)).isGreaterThanOrEqualTo(version))
          .filteredOn(n -> LogPaths.checkpointVersion(n).isPresent())
          .isNotEmpty()
          .allSatisfy(n -> assertThat(LogPaths.checkpointVersion(n)).hasValue(version));
    }
  }

  private static void deleteCommit(Path table, long version) throws IOException {
    Files.delete(table.resolve("_delta_log/" + LogPaths.commitFileName(version)));
  }
}
