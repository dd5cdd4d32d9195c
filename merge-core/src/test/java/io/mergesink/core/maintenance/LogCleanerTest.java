package io.mergesink.core.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.FixtureTables;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Expired log files go; every retained version, the txns and Kernel's view stay. */
class LogCleanerTest {
  private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

  @TempDir Path dir;

  @Test
  void filesBelowTheNewestExpiredCheckpointGoAndTheTableStaysReadable() throws Exception {
    DeltaTable table = Tables.create(dir, Map.of(Retention.LOG_RETENTION, "interval 30 days"));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(10));
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(5);
    for (int round = 1; round <= 35; round++) {
      Tables.randomCommit(writer, model, random, 300, 20, "app:t:" + (round % 3), round);
    }
    Path log = Path.of(LogPaths.logDir(table.root()));
    ageVersionsBelow(log, 26, 40);   // versions 0..25 are 40 days old, 26..35 recent
    LogCleaner cleaner = new LogCleaner(Tables.STORAGE);
    Duration retention = Retention.log(table.snapshot().metadata());
    assertThat(retention).isEqualTo(Duration.ofDays(30));

    long keep = newestCheckpointBelow(log, 26);
    assertThat(keep).isGreaterThanOrEqualTo(20);

    LogCleanup plan = cleaner.plan(table.root(), retention, System.currentTimeMillis());
    assertThat(plan.keptFromVersion()).hasValue(keep);
    assertThat(plan.expiredFiles()).extracting(Storage.FileInfo::name)
        .contains(LogPaths.commitFileName(0), LogPaths.commitFileName(keep - 1), LogPaths.paddedVersion(10) + ".checkpoint.parquet")
        .doesNotContain(LogPaths.commitFileName(keep), LogPaths.paddedVersion(keep) + ".checkpoint.parquet")
        .allMatch(name -> Long.parseLong(name.substring(0, LogPaths.VERSION_DIGITS)) < keep);
    cleaner.clean(table.root(), retention, System.currentTimeMillis());

    assertThat(Files.exists(log.resolve(LogPaths.commitFileName(keep - 1)))).isFalse();
    assertThat(Files.exists(log.resolve(LogPaths.commitFileName(keep)))).isTrue();
    assertThat(Files.exists(log.resolve(LogPaths.commitFileName(35)))).isTrue();
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
    for (int partition = 0; partition < 3; partition++) {
      long last = 35 - (35 - partition) % 3;
      assertThat(KernelTables.txnVersion(table.root(), "app:t:" + partition)).contains(last);
    }
    SnapshotLoader loader = new SnapshotLoader(Tables.STORAGE);
    assertThat(loader.atVersion(table.root(), keep).version()).isEqualTo(keep);
    assertThat(loader.latest(table.root()).version()).isEqualTo(35);
    assertThat(Tables.scan(table, table.snapshot())).containsExactlyInAnyOrderElementsOf(model.values());
    Tables.randomCommit(table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)), model, random, 300, 20, "app:t:9", 1);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void nothingExpiresWithoutAnOldEnoughCheckpoint() throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(10));
    Random random = new Random(6);
    Map<Long, Row> model = new HashMap<>();
    for (int round = 1; round <= 15; round++) {
      Tables.randomCommit(writer, model, random, 300, 20, "app:t:0", round);
    }
    Path log = Path.of(LogPaths.logDir(table.root()));
    ageVersionsBelow(log, 10, 40);   // commit 10 (the checkpoint's) is recent

    LogCleanup plan = new LogCleaner(Tables.STORAGE).plan(table.root(), Duration.ofDays(30), System.currentTimeMillis());

    assertThat(plan.keptFromVersion()).isEmpty();
    assertThat(plan.expiredFiles()).isEmpty();
  }

  @Test
  void aV2CheckpointKeptByTheCleanupKeepsItsSidecars() throws Exception {
    String root = FixtureTables.copy("v2-checkpoint-table", dir.resolve("v2")).toString();
    DeltaTable table = DeltaTable.forPath(Tables.STORAGE, root);
    Set<Row> before = new HashSet<>(KernelTables.readRows(root));
    Path log = Path.of(LogPaths.logDir(root));
    ageVersionsBelow(log, 5, 40);    // Spark's versions 0..4, its V2 checkpoint at 3 among them, are 40 days old
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(100),
        List.of("id"));
    Row added = Row.of(5_000L, "ours");
    writer.commit(ChangeSet.builder().upsert(added).build());
    before.add(added);
    List<String> sidecars;
    try (Stream<Path> files = Files.list(log.resolve(LogPaths.SIDECAR_DIR))) {
      sidecars = files.map(p -> p.getFileName().toString()).sorted().toList();
    }

    LogCleanup cleanup = new LogCleaner(Tables.STORAGE).clean(root, Duration.ofDays(30), System.currentTimeMillis());

    assertThat(cleanup.keptFromVersion()).hasValue(3);
    assertThat(Files.exists(log.resolve(LogPaths.commitFileName(2)))).isFalse();
    try (Stream<Path> files = Files.list(log.resolve(LogPaths.SIDECAR_DIR))) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted()).isNotEmpty().containsExactlyElementsOf(sidecars);
    }
    assertThat(new HashSet<>(KernelTables.readRows(root))).isEqualTo(before);
    assertThat(new HashSet<>(Tables.scan(table, new SnapshotLoader(Tables.STORAGE).latest(root)))).isEqualTo(before);
  }

  private static long newestCheckpointBelow(Path log, long version) throws Exception {
    try (Stream<Path> files = Files.list(log)) {
      return files.map(p -> LogPaths.checkpointVersion(p.getFileName().toString()))
          .filter(v -> v.isPresent() && v.getAsLong() < version)
          .mapToLong(v -> v.getAsLong()).max().orElseThrow();
    }
  }

  private static void ageVersionsBelow(Path log, long version, int days) throws Exception {
    FileTime old = FileTime.fromMillis(System.currentTimeMillis() - days * DAY_MILLIS);
    try (Stream<Path> files = Files.list(log)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.matches("\\d{20}\\..*") && Long.parseLong(name.substring(0, LogPaths.VERSION_DIGITS)) < version) {
          Files.setLastModifiedTime(file, old);
        }
      }
    }
  }
}
