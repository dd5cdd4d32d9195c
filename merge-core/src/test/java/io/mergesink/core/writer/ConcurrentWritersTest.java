package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Two writers on one table: no commit lost, one live row per key, and a writer whose txn moved is fenced. */
class ConcurrentWritersTest {
  private static final int COMMITS_PER_WRITER = 25;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void twoWritersCommittingAtOnceLoseNothing(boolean localStorage) throws Exception {
    Storage storage = localStorage ? new LocalStorage() : HadoopStorage.withDefaults();
    DeltaTable table = DeltaTable.forPath(storage, dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    Map<Long, Row> model = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Void>> results = pool.invokeAll(List.of(writerTask(table, 0, model), writerTask(table, 1, model)));
      for (Future<Void> result : results) {
        result.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    String root = table.root();
    assertThat(new HashSet<>(KernelTables.readRows(root))).isEqualTo(new HashSet<>(model.values()));
    assertThat(KernelTables.readRows(root)).hasSize(model.size());
    assertThat(KernelTables.txnVersion(root, "app:t:0")).contains((long) COMMITS_PER_WRITER);
    assertThat(KernelTables.txnVersion(root, "app:t:1")).contains((long) COMMITS_PER_WRITER);
    assertThat(KernelTables.latestVersion(root)).isGreaterThanOrEqualTo(2L * COMMITS_PER_WRITER);
  }

  /**
   * Writer {@code partition} owns the keys {@code k} with {@code k % 2 == partition} (as Kafka
   * routes a key to one partition), and both writers share one table and its untagged files.
   */
  private Callable<Void> writerTask(DeltaTable table, int partition, Map<Long, Row> model) {
    return () -> {
      TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
      Random random = new Random(partition);
      for (int commit = 1; commit <= COMMITS_PER_WRITER; commit++) {
        ChangeSet.Builder changes = ChangeSet.builder();
        Map<Long, Row> batch = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
          long id = random.nextInt(200) * 2L + partition;
          batch.put(id, random.nextInt(5) == 0 ? null : MergeModelTest.row(id, commit, random));
        }
        batch.forEach((id, row) -> {
          if (row == null) {
            changes.delete(Row.of(id));
          } else {
            changes.upsert(row);
          }
        });
        writer.commit(changes.txn("app:t:" + partition, writer.snapshot().txnVersion("app:t:" + partition), commit).build());
        batch.forEach((id, row) -> {
          if (row == null) {
            model.remove(id);
          } else {
            model.put(id, row);
          }
        });
      }
      return null;
    };
  }

  @Test
  void writerWhoseTxnWasMovedIsFencedAndChangesNothing() throws Exception {
    DeltaTable table = newTable();
    TableWriter zombie = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    TableWriter owner = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    Row ownerRow = MergeModelTest.row(1, 1, new Random(1));
    owner.commit(ChangeSet.builder().upsert(ownerRow).txn("app:t:0", TxnChange.first(10)).build());

    Row zombieRow = MergeModelTest.row(2, 1, new Random(2));
    assertThatThrownBy(() -> zombie.commit(ChangeSet.builder().upsert(zombieRow).txn("app:t:0", TxnChange.first(7)).build()))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining("app:t:0");

    assertThat(KernelTables.readRows(table.root())).containsExactly(ownerRow);
    assertThat(KernelTables.txnVersion(table.root(), "app:t:0")).contains(10L);
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(1L);
  }

  @Test
  void writerThatRefreshedOntoAMovedTxnIsFenced() throws Exception {
    DeltaTable table = newTable();
    TableWriter zombie = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    zombie.commit(ChangeSet.builder().txn("app:t:0", TxnChange.first(5)).build());
    TableWriter owner = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    owner.commit(ChangeSet.builder().txn("app:t:0", TxnChange.from(5, 9)).build());
    // the zombie's next attempt loses the race for version 2 and reads the owner's txn there
    assertThatThrownBy(() -> zombie.commit(ChangeSet.builder().upsert(MergeModelTest.row(3, 1, new Random(3))).txn("app:t:0", TxnChange.from(5, 6)).build()))
        .isInstanceOf(FencedException.class);
    assertThat(KernelTables.readRows(table.root())).isEmpty();
    assertThat(KernelTables.txnVersion(table.root(), "app:t:0")).contains(9L);
  }

  @Test
  void concurrentCommitMarkingTheSameFileForcesReplanAndKeepsOneRowPerKey() throws Exception {
    DeltaTable table = newTable();
    Random random = new Random(11);
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS))
        .commit(ChangeSet.builder().upsert(MergeModelTest.row(1, 1, random)).upsert(MergeModelTest.row(2, 1, random)).build());
    Row other = MergeModelTest.row(1, 2, random);
    Row ours = MergeModelTest.row(1, 3, random);
    java.util.concurrent.atomic.AtomicBoolean interfered = new java.util.concurrent.atomic.AtomicBoolean();
    io.mergesink.core.commit.CommitHook otherWriterFirst = (root, version) -> {
      if (interfered.compareAndSet(false, true)) {
        try {
          table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)).commit(ChangeSet.builder().upsert(other).build());
        } catch (FencedException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCommitHook(otherWriterFirst));
    CommitResult result = writer.commit(ChangeSet.builder().upsert(ours).txn("app:t:0", TxnChange.first(1)).build());

    assertThat(result.replans()).isEqualTo(1);
    assertThat(KernelTables.readRows(table.root())).extracting(row -> row.get(0)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(KernelTables.readRows(table.root())).contains(ours).doesNotContain(other);
  }

  @Test
  void truncateCommittedAfterAConcurrentAppendRemovesTheAppendedRowsToo() throws Exception {
    DeltaTable table = newTable();
    Random random = new Random(12);
    TableWriter truncating = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    truncating.commit(ChangeSet.builder().upsert(MergeModelTest.row(1, 1, random)).build());
    // another writer inserts a new key; the truncating writer's snapshot does not have its file
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS))
        .commit(ChangeSet.builder().upsert(MergeModelTest.row(2, 1, random)).build());
    Row afterTruncate = MergeModelTest.row(3, 1, random);

    CommitResult result = truncating.commit(ChangeSet.builder().truncate().upsert(afterTruncate).txn("app:t:0", TxnChange.first(1)).build());

    assertThat(result.replans()).as("the appended file invalidates a plan that read the whole table").isEqualTo(1);
    assertThat(KernelTables.readRows(table.root())).containsExactly(afterTruncate);
  }

  /**
   * A writer that found a key in no file inserts it: another writer that committed that key since
   * the snapshot the plan was made on (here before this writer's commit even began) makes it plan
   * again, so its upsert replaces that row and its delete removes it.
   */
  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void keysAnotherWriterInsertedSinceTheSnapshotAreReplacedAndDeletedNotDuplicated(MergeStrategy strategy) throws Exception {
    DeltaTable table = newTable(strategy);
    Random random = new Random(13);
    TableWriter first = table.newWriter(WriterOptions.defaults(strategy));
    TableWriter second = table.newWriter(WriterOptions.defaults(strategy));
    Row secondsEarlier = MergeModelTest.row(9, 1, random);
    second.commit(ChangeSet.builder().upsert(secondsEarlier).build());
    first.commit(ChangeSet.builder().upsert(MergeModelTest.row(1, 1, random)).upsert(MergeModelTest.row(2, 1, random)).build());
    Row secondsOne = MergeModelTest.row(1, 2, random);

    CommitResult result = second.commit(ChangeSet.builder().upsert(secondsOne).delete(Row.of(2L)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(secondsEarlier, secondsOne);
    assertThat(result.replans()).as("the first writer's file may hold keys the plan found in no file").isEqualTo(1);
  }

  /**
   * A winner's new file in the writer's scope is read for the keys the plan looked up: rows of other
   * keys only are retried on top, a row of one of them (here one the plan deletes) makes it plan again.
   * Keys of one long column and composite keys take different paths through the index.
   */
  @ParameterizedTest
  @CsvSource({"DELETION_VECTORS, id", "COPY_ON_WRITE, id", "DELETION_VECTORS, name;id", "COPY_ON_WRITE, name;id"})
  void aWinnersNewFileInScopeForcesAPlanOnlyWhenItHoldsAKeyLookedUp(MergeStrategy strategy, String keyColumns) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of(keyColumns.split(";")), strategy, Map.of()));
    Random random = new Random(15);
    TableWriter first = table.newWriter(WriterOptions.defaults(strategy));
    TableWriter second = table.newWriter(WriterOptions.defaults(strategy));
    Row one = namedRow(1, random);
    Row two = namedRow(2, random);
    first.commit(ChangeSet.builder().upsert(one).upsert(two).build());
    Row three = namedRow(3, random);

    CommitResult otherKeys = second.commit(ChangeSet.builder().upsert(three).delete(keyOf(namedRow(4, random), keyColumns)).build());

    assertThat(otherKeys.replans()).as("keys 3 and 4 are not in the winner's file").isZero();
    assertThat(otherKeys.attempts()).isEqualTo(2);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(one, two, three);

    Row five = namedRow(5, random);
    first.commit(ChangeSet.builder().upsert(five).build());
    Row six = namedRow(6, random);
    second.commit(ChangeSet.builder().upsert(six).build());
    first.commit(ChangeSet.builder().upsert(namedRow(7, random)).build());

    CommitResult sameKey = second.commit(ChangeSet.builder().delete(keyOf(namedRow(7, random), keyColumns)).build());

    assertThat(sameKey.replans()).as("the winner added key 7, which this commit deletes").isEqualTo(1);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(one, two, three, five, six);
  }

  /** A row whose name is a function of its id, so that (name, id) keys can be deleted by id alone. */
  private static Row namedRow(long id, Random random) {
    Row row = MergeModelTest.row(id, 1, random);
    return Row.of(id, "name-" + id, row.get(2), row.get(3), row.get(4));
  }

  private static Row keyOf(Row row, String keyColumns) {
    return keyColumns.equals("id") ? Row.of(row.get(0)) : Row.of(row.get(1), row.get(0));
  }

  /** Writers of other owners (Kafka partitions) do not index each other's files: their new files are retried on top. */
  @Test
  void newFilesOfAnotherOwnerAreRetriedOnTop() throws Exception {
    DeltaTable table = newTable(MergeStrategy.DELETION_VECTORS);
    Random random = new Random(14);
    FileOwners zero = FileOwners.of(List.of("t:0"));
    FileOwners one = FileOwners.of(List.of("t:1"));
    TableWriter first = table.newWriter(indexing(zero));
    TableWriter second = table.newWriter(indexing(one));
    Row firsts = MergeModelTest.row(1, 1, random);
    Row seconds = MergeModelTest.row(2, 1, random);
    first.commit(ChangeSet.builder().owners(zero).upsert(firsts).build());

    CommitResult result = second.commit(ChangeSet.builder().owners(one).upsert(seconds).build());

    assertThat(result.replans()).isZero();
    assertThat(result.attempts()).isEqualTo(2);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(firsts, seconds);
  }

  private static WriterOptions indexing(FileOwners owners) {
    return WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withScope(OwnerScope.of(owners));
  }

  private DeltaTable newTable(MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of("id"), strategy, Map.of()));
    return table;
  }

  private DeltaTable newTable() throws Exception {
    return newTable(MergeStrategy.DELETION_VECTORS);
  }
}
