package io.mergesink.core.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Vacuum deletes exactly the files no retained version references, and what a dry run lists. */
class VacuumTest {
  private static final Duration WEEK = Duration.ofDays(7);
  private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

  @TempDir Path dir;
  private DeltaTable table;
  private Path root;
  private Map<Long, Row> model;

  /** A table with DVs, then compacted, so it has live files, tombstoned files and tombstoned DV files. */
  @BeforeEach
  void compactedTable() throws Exception {
    table = Tables.create(dir);
    root = Path.of(table.root());
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    model = new HashMap<>();
    Random random = new Random(3);
    for (int round = 1; round <= 30; round++) {
      Tables.randomCommit(writer, model, random, 200, 30, "app:t:0", round);
    }
    new Compactor(Tables.STORAGE, CompactionOptions.defaults().withMinSmallFiles(2)).compact(table.snapshot());
    Tables.randomCommit(writer, model, random, 200, 30, "app:t:0", 31);
  }

  @Test
  void withinRetentionOnlyOldOrphansGoAndEveryRetainedVersionStaysReadable() throws Exception {
    Path orphan = writeOrphan("part-crashed.zstd.parquet", 10);
    Path orphanDv = writeOrphan("deletion_vector_crashed.bin", 10);
    Path inFlight = writeOrphan("part-inflight.zstd.parquet", 0);
    Path hidden = writeOrphan("_hidden/part-x.parquet", 10);
    Set<Path> before = dataFiles();

    VacuumPlan plan = new Vacuum(Tables.STORAGE).plan(table.snapshot(), WEEK, System.currentTimeMillis());

    assertThat(paths(plan)).containsExactlyInAnyOrder(orphan, orphanDv);
    new Vacuum(Tables.STORAGE).execute(plan);
    Set<Path> expected = new HashSet<>(before);
    expected.removeAll(List.of(orphan, orphanDv));
    assertThat(dataFiles()).isEqualTo(expected).contains(inFlight, hidden);
    long latest = table.snapshot().version();
    SnapshotLoader loader = new SnapshotLoader(Tables.STORAGE);
    for (long version = 0; version <= latest; version++) {
      assertThat(missingFiles(loader.atVersion(table.root(), version))).as("files of version %d", version).isEmpty();
    }
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void afterRetentionTheCompactedAwayFilesAndTheirDeletionVectorsGoAndTheDryRunListsExactlyThem() throws Exception {
    Snapshot latest = table.snapshot();
    long eightDaysLater = System.currentTimeMillis() + 8 * DAY_MILLIS;
    Set<Path> before = dataFiles();
    Set<Path> live = liveFiles(latest);

    VacuumPlan dryRun = new Vacuum(Tables.STORAGE).plan(latest, WEEK, eightDaysLater);

    assertThat(dataFiles()).as("a dry run deletes nothing").isEqualTo(before);
    assertThat(paths(dryRun)).doesNotContainAnyElementsOf(live).isNotEmpty();
    assertThat(paths(dryRun)).anyMatch(p -> p.getFileName().toString().startsWith(DeletionVectorStore.FILE_NAME_PREFIX));
    int deleted = new Vacuum(Tables.STORAGE).execute(dryRun);

    assertThat(deleted).isEqualTo(dryRun.files().size());
    Set<Path> gone = new HashSet<>(before);
    gone.removeAll(dataFiles());
    assertThat(gone).isEqualTo(new HashSet<>(paths(dryRun)));
    assertThat(dataFiles()).isEqualTo(live);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(new Vacuum(Tables.STORAGE).plan(table.snapshot(), WEEK, eightDaysLater).files()).isEmpty();
  }

  @Test
  void relativePathsIgnoreSchemesAndRejectFilesOutsideTheTable() {
    assertThat(Vacuum.relative("/data/t", "file:/data/t/a/b.parquet")).contains("a/b.parquet");
    assertThat(Vacuum.relative("file:///data/t/", "/data/t/b.parquet")).contains("b.parquet");
    assertThat(Vacuum.relative("s3a://bucket/t", "s3a://bucket/t2/b.parquet")).isEmpty();
  }

  private Path writeOrphan(String relative, int daysOld) throws Exception {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[] {1, 2, 3});
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - daysOld * DAY_MILLIS));
    return file;
  }

  /** Files outside {@code _delta_log}, without Hadoop's .crc sidecars. */
  private Set<Path> dataFiles() throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile)
          .filter(p -> !p.startsWith(root.resolve(LogPaths.LOG_DIR)) && !p.getFileName().toString().endsWith(".crc"))
          .collect(Collectors.toSet());
    }
  }

  private Set<Path> liveFiles(Snapshot snapshot) {
    Set<Path> files = new HashSet<>();
    for (AddFile file : snapshot.files().values()) {
      files.add(Path.of(LogPaths.resolve(table.root(), file.path())));
      if (file.deletionVector() != null) {
        files.add(Path.of(DeletionVectorStore.absolutePath(table.root(), file.deletionVector())));
      }
    }
    return files;
  }

  private Set<Path> missingFiles(Snapshot snapshot) {
    return liveFiles(snapshot).stream().filter(p -> !Files.exists(p)).collect(Collectors.toSet());
  }

  private List<Path> paths(VacuumPlan plan) {
    return plan.files().stream().map(Storage.FileInfo::name).map(root::resolve).toList();
  }
}
