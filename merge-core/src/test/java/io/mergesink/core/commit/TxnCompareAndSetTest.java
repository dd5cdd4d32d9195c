package io.mergesink.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit's txns are compare-and-sets (docs/design.md, "Exactly once"): checked against the
 * snapshot the commit is based on and against every commit that wins a version first; a mismatch
 * fences the writer and publishes nothing.
 */
class TxnCompareAndSetTest {
  private static final String APP = "app:orders:0";
  private static final String OTHER_APP = "app:orders:1";
  private static final StructType SCHEMA = StructType.of(new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));

  @TempDir Path dir;

  @Test
  void aCommitExpectingAnotherVersionThanTheTableHoldsIsFencedAndLeavesNoFile() throws Exception {
    DeltaTable table = newTable();
    Row first = row(1);
    writer(table).commit(ChangeSet.builder().upsert(first).txn(APP, TxnChange.first(9)).build());
    long dataFiles = dataFiles(table);

    Row zombie = row(2);
    assertThatThrownBy(() -> writer(table).commit(ChangeSet.builder().upsert(zombie).txn(APP, TxnChange.from(5, 12)).build()))
        .isInstanceOf(FencedException.class)
        .hasMessageContaining(APP).hasMessageContaining("at version 9").hasMessageContaining("expected version 5");

    assertThat(KernelTables.readRows(table.root())).containsExactly(first);
    assertThat(KernelTables.txnVersion(table.root(), APP)).contains(9L);
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(1L);
    assertThat(dataFiles(table)).as("the fenced commit's data file is deleted").isEqualTo(dataFiles);
  }

  @Test
  void expectingNoVersionWhereTheTableHoldsOneIsFenced() throws Exception {
    DeltaTable table = newTable();
    writer(table).commit(ChangeSet.builder().txn(APP, TxnChange.first(3)).build());

    assertThatThrownBy(() -> writer(table).commit(ChangeSet.builder().txn(APP, TxnChange.first(4)).build()))
        .isInstanceOf(FencedException.class).hasMessageContaining("expected no version");
    assertThat(KernelTables.txnVersion(table.root(), APP)).contains(3L);
  }

  @Test
  void aWinnerThatMovedOurTxnFencesUsOnTheNextVersion() throws Exception {
    DeltaTable table = newTable();
    TableWriter owner = writer(table);
    owner.commit(ChangeSet.builder().txn(APP, TxnChange.first(1)).build());
    AtomicBoolean raced = new AtomicBoolean();
    CommitHook newOwnerFirst = (root, version) -> {
      if (raced.compareAndSet(false, true)) {
        commitQuietly(writer(table), ChangeSet.builder().txn(APP, TxnChange.from(1, 20)).build());
      }
    };
    TableWriter zombie = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCommitHook(newOwnerFirst));

    Row lost = row(7);
    assertThatThrownBy(() -> zombie.commit(ChangeSet.builder().upsert(lost).txn(APP, TxnChange.from(1, 5)).build()))
        .isInstanceOf(FencedException.class).hasMessageContaining("at version 20");

    assertThat(KernelTables.readRows(table.root())).isEmpty();
    assertThat(KernelTables.txnVersion(table.root(), APP)).contains(20L);
  }

  @Test
  void aWinnerThatMovedOtherTxnsOnlyMakesUsRetry() throws Exception {
    DeltaTable table = newTable();
    AtomicBoolean raced = new AtomicBoolean();
    CommitHook otherPartitionFirst = (root, version) -> {
      if (raced.compareAndSet(false, true)) {
        commitQuietly(writer(table), ChangeSet.builder().txn(OTHER_APP, TxnChange.first(40)).build());
      }
    };
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCommitHook(otherPartitionFirst));

    Row row = row(3);
    CommitResult result = writer.commit(ChangeSet.builder().upsert(row).txn(APP, TxnChange.first(5)).build());

    assertThat(result.attempts()).isEqualTo(2);
    assertThat(KernelTables.readRows(table.root())).containsExactly(row);
    assertThat(KernelTables.txnVersion(table.root(), APP)).contains(5L);
    assertThat(KernelTables.txnVersion(table.root(), OTHER_APP)).contains(40L);
  }

  @Test
  void aTxnMayNotMoveBack() {
    assertThatThrownBy(() -> TxnChange.from(5, 4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("from 5 to 4");
    assertThat(TxnChange.from(5, 5).version()).isEqualTo(5);
  }

  private DeltaTable newTable() throws IOException {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    return table;
  }

  private static Row row(long id) {
    return Row.of(id, "name-" + id);
  }

  private static TableWriter writer(DeltaTable table) throws IOException {
    return table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
  }

  private static void commitQuietly(TableWriter writer, ChangeSet changes) throws IOException {
    try {
      writer.commit(changes);
    } catch (FencedException e) {
      throw new IllegalStateException(e);
    }
  }

  private long dataFiles(DeltaTable table) {
    try (Stream<Path> files = Files.list(Path.of(table.root()))) {
      return files.filter(path -> path.getFileName().toString().endsWith(".parquet")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
