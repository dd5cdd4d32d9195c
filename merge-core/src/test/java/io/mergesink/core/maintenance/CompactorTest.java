package io.mergesink.core.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction over real tables, checked with Delta Kernel before and after. */
class CompactorTest {
  private static final String APP_ID = "app:orders:0";
  /** Small commits before a compaction: many checkpoints' worth (every 10 versions) and hundreds of files. */
  private static final int COMMITS = 300;

  @TempDir Path dir;

  @Test
  void hundredsOfSmallCommitsCompactIntoOneFileWithoutDeletionVectorsAndTheSinkKeepsWriting() throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(1000);
    for (int round = 1; round <= COMMITS; round++) {
      Tables.randomCommit(writer, model, random, 3000, 8, APP_ID, round);
    }
    Snapshot before = table.snapshot();
    assertThat(before.files().size()).isGreaterThan(COMMITS / 2);
    assertThat(before.files().values()).anyMatch(f -> f.deletionVector() != null);
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(new HashSet<>(model.values()));

    CompactionResult result = new Compactor(Tables.STORAGE, CompactionOptions.defaults()).compact(before);

    CompactionResult.Compacted compacted = (CompactionResult.Compacted) result;
    assertThat(compacted.filesRemoved()).isEqualTo(before.files().size());
    assertThat(compacted.filesAdded()).isEqualTo(1);
    assertThat(compacted.rowsWritten()).isEqualTo(model.size());
    Snapshot after = table.snapshot();
    assertThat(after.files()).hasSize(1);
    assertThat(after.files().values()).allMatch(f -> f.deletionVector() == null && !f.dataChange());
    assertThat(after.txnVersions()).containsEntry(APP_ID, (long) COMMITS);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(KernelTables.txnVersion(table.root(), APP_ID)).contains((long) COMMITS);

    // the sink goes on: updates and deletes of keys that now live in the compacted file
    for (int round = COMMITS + 1; round <= COMMITS + 20; round++) {
      Tables.randomCommit(writer, model, random, 3000, 50, APP_ID, round);
    }
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void denseDeletionVectorsArePurgedAndSparseOnesKept() throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    ChangeSet.Builder first = ChangeSet.builder();
    for (long id = 0; id < 1000; id++) {
      first.upsert(Tables.row(id, 1));
    }
    writer.commit(first.build());
    ChangeSet.Builder second = ChangeSet.builder();
    for (long id = 1000; id < 2000; id++) {
      second.upsert(Tables.row(id, 2));
    }
    writer.commit(second.build());
    ChangeSet.Builder deletes = ChangeSet.builder();
    for (long id = 0; id < 300; id++) {
      deletes.delete(Row.of(id));            // 30 % of the first file
    }
    for (long id = 1000; id < 1100; id++) {
      deletes.delete(Row.of(id));            // 10 % of the second
    }
    writer.commit(deletes.build());
    Snapshot before = table.snapshot();
    Set<Row> expected = new HashSet<>(KernelTables.readRows(table.root()));
    assertThat(expected).hasSize(1600);

    Compactor compactor = new Compactor(Tables.STORAGE, CompactionOptions.defaults());
    CompactionPlan plan = compactor.plan(before);
    assertThat(plan.bins()).hasSize(1);
    assertThat(plan.bins().get(0).files()).extracting(AddFile::numRecords).containsExactly(1000L);
    assertThat(FileHealth.deletedFraction(plan.bins().get(0).files().get(0))).isEqualTo(0.3);

    CompactionResult.Compacted result = (CompactionResult.Compacted) compactor.compact(before);
    assertThat(result.rowsPurged()).isEqualTo(300);
    Snapshot after = table.snapshot();
    assertThat(after.files()).hasSize(2);
    assertThat(after.files().values()).filteredOn(f -> f.deletionVector() != null)
        .extracting(AddFile::deletedRecords).containsExactly(100L);
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(expected);
    assertThat(KernelTables.readRows(table.root())).hasSize(1600);
    assertThat(compactor.compact(after)).isInstanceOf(CompactionResult.NothingToCompact.class);
  }

  @Test
  void onlyFilesInScopeAreCompactedAndOutputsKeepTheirTags() throws Exception {
    DeltaTable table = Tables.create(dir);
    Map<Long, Row> model = new HashMap<>();
    for (int partition = 0; partition < 2; partition++) {
      FileOwners owners = FileOwners.of(List.of("orders:" + partition));
      WriterOptions options = WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withScope(OwnerScope.of(owners));
      TableWriter writer = table.newWriter(options);
      for (int round = 1; round <= 12; round++) {
        ChangeSet.Builder changes = ChangeSet.builder().owners(owners);
        for (int i = 0; i < 5; i++) {
          long id = partition * 10_000L + round * 10 + i;
          changes.upsert(Tables.row(id, round));
          model.put(id, Tables.row(id, round));
        }
        writer.commit(changes.txn("app:orders:" + partition, writer.snapshot().txnVersion("app:orders:" + partition), round).build());
      }
    }
    Map<String, String> zero = FileOwners.of(List.of("orders:0")).tags();
    Compactor compactor = new Compactor(Tables.STORAGE, CompactionOptions.defaults().withScope(f -> zero.equals(f.tags())));

    CompactionResult.Compacted result = (CompactionResult.Compacted) compactor.compact(table.snapshot());

    assertThat(result.filesRemoved()).isEqualTo(12);
    Map<Map<String, String>, Long> filesPerTag = table.snapshot().files().values().stream()
        .collect(Collectors.groupingBy(AddFile::tags, Collectors.counting()));
    assertThat(filesPerTag).containsEntry(zero, 1L).containsEntry(FileOwners.of(List.of("orders:1")).tags(), 12L);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
  }

  @Test
  void aRunStaysWithinItsByteBudgetAndLeavesTheRestForLater() throws Exception {
    DeltaTable table = Tables.create(dir);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(7);
    for (int round = 1; round <= 40; round++) {
      Tables.randomCommit(writer, model, random, 100_000, 20, APP_ID, round);
    }
    Snapshot before = table.snapshot();
    long oneFile = before.files().values().iterator().next().size();
    CompactionOptions options = CompactionOptions.defaults()
        .withTargetFileSizeBytes(oneFile * 5)
        .withMinSmallFiles(2)
        .withBudget(oneFile * 12, 10_000, Duration.ofMinutes(1));
    Compactor compactor = new Compactor(Tables.STORAGE, options);

    CompactionResult.Compacted first = (CompactionResult.Compacted) compactor.compact(before);
    assertThat(first.bytesRemoved()).isLessThanOrEqualTo(oneFile * 12 + oneFile);
    assertThat(first.deferredBins()).isGreaterThan(0);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());

    int runs = 1;
    while (runs < 100 && compactor.compact(table.snapshot()) instanceof CompactionResult.Compacted) {
      runs++;
    }
    assertThat(runs).as("runs until nothing is left to compact").isBetween(2, 99);
    assertThat(table.snapshot().files().size()).isLessThan(before.files().size() / 3);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
  }
}
