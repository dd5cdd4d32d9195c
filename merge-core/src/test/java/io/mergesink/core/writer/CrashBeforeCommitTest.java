package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.CommitHook;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A writer that dies after writing data and DV files but before its log entry leaves the previous state intact. */
class CrashBeforeCommitTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void crashBetweenFilesAndLogEntryLeavesPreviousState(MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of("id"), strategy, Map.of()));
    Random random = new Random(7);
    Row first = MergeModelTest.row(1, 1, random);
    Row second = MergeModelTest.row(2, 1, random);
    table.newWriter(WriterOptions.defaults(strategy)).commit(ChangeSet.builder().upsert(first).upsert(second).txn("a:t:0", TxnChange.first(1)).build());

    CommitHook crash = (root, version) -> {
      throw new IOException("simulated crash before publishing version " + version);
    };
    TableWriter crashing = table.newWriter(WriterOptions.defaults(strategy).withCommitHook(crash));
    Row replacement = MergeModelTest.row(1, 2, random);
    assertThatThrownBy(() -> crashing.commit(ChangeSet.builder().upsert(replacement).delete(Row.of(2L)).txn("a:t:0", TxnChange.from(1, 2)).build()))
        .hasMessageContaining("simulated crash");

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(first, second);
    assertThat(KernelTables.txnVersion(table.root(), "a:t:0")).contains(1L);

    // a restarted writer applies the same changes once
    table.newWriter(WriterOptions.defaults(strategy)).commit(ChangeSet.builder().upsert(replacement).delete(Row.of(2L)).txn("a:t:0", TxnChange.from(1, 2)).build());
    assertThat(KernelTables.readRows(table.root())).containsExactly(replacement);
    assertThat(KernelTables.txnVersion(table.root(), "a:t:0")).contains(2L);
  }
}
