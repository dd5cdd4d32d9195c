package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file marked again by the same writer (its DV, row count and stats known from the previous
 * plan) gets the same {@code add} as when everything is read back from the table, and a plan that
 * was not committed leaves nothing behind for the next one.
 */
class DeletionVectorMergeTest {
  private static final int ROWS = 100;

  @TempDir Path dir;

  @Test
  void remarkingFromTheLastPlanEqualsRemarkingFromTheTable() throws Exception {
    AddFile fromLastPlan = remarkTwice(dir.resolve("same-writer"), false);
    AddFile fromTable = remarkTwice(dir.resolve("new-writer"), true);

    for (AddFile file : List.of(fromLastPlan, fromTable)) {
      assertThat(file.deletionVector().cardinality()).isEqualTo(2);
      assertThat(file.numRecords()).isEqualTo(ROWS);
      assertThat(file.stats()).contains("\"tightBounds\":false");
    }
    assertThat(fromLastPlan.stats()).isEqualTo(fromTable.stats());
  }

  @Test
  void aPlanThatWasNotCommittedLeavesNoDeletionsBehind() throws Exception {
    AtomicBoolean failNextPublish = new AtomicBoolean();
    CommitHook diskError = (root, version) -> {
      if (failNextPublish.getAndSet(false)) {
        throw new IOException("disk full before the log entry of version " + version);
      }
    };
    DeltaTable table = load(dir.resolve("t"));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCommitHook(diskError));
    writer.commit(ChangeSet.builder().upsert(row(3, "committed")).build());
    failNextPublish.set(true);
    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().upsert(row(4, "never committed")).build()))
        .isInstanceOf(IOException.class);

    // marks the same file again: row 4's old version must stay live
    writer.commit(ChangeSet.builder().upsert(row(5, "committed")).build());

    assertThat(KernelTables.readRows(table.root())).hasSize(ROWS)
        .contains(row(3, "committed"), row(4, "loaded"), row(5, "committed"));
  }

  /** Loads one file, then updates one of its rows in each of two commits; returns the file's last {@code add}. */
  private static AddFile remarkTwice(Path root, boolean newWriterForSecondUpdate) throws Exception {
    DeltaTable table = load(root);
    String loaded = table.snapshot().files().keySet().iterator().next();
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));

    writer.commit(ChangeSet.builder().upsert(row(3, "first update")).build());
    if (newWriterForSecondUpdate) {
      writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    }
    writer.commit(ChangeSet.builder().upsert(row(4, "second update")).build());

    assertThat(KernelTables.readRows(root.toString())).hasSize(ROWS).contains(row(3, "first update"), row(4, "second update"));
    return table.snapshot().files().get(loaded);
  }

  /** A deletion-vector table of {@value #ROWS} rows in one file. */
  private static DeltaTable load(Path root) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    ChangeSet.Builder load = ChangeSet.builder();
    for (long id = 0; id < ROWS; id++) {
      load.upsert(row(id, "loaded"));
    }
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS)).commit(load.build());
    return table;
  }

  private static Row row(long id, String name) {
    return Row.of(id, name, BigDecimal.valueOf(id, 2), 1_767_225_600_000_000L + id, null);
  }
}
