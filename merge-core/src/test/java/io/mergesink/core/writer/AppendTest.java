package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Append tables keep every row, have the widely readable protocol, and refuse deletes. */
class AppendTest {
  private static final StructType EVENTS = StructType.of(
      new StructField("id", PrimitiveType.LONG, true),
      new StructField("_op", PrimitiveType.STRING, false),
      new StructField("_kafka_offset", PrimitiveType.LONG, false));

  @TempDir Path dir;

  @Test
  void everyRowIsAppended() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("audit").toString());
    Protocol protocol = table.createIfAbsent(TableSpec.append(EVENTS, Map.of())).protocol();
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults());
    List<Row> expected = new ArrayList<>();
    for (int commit = 0; commit < 3; commit++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      for (long offset = commit * 10L; offset < commit * 10L + 10; offset++) {
        Row row = Row.of(offset % 4, offset % 3 == 0 ? "d" : "u", offset);
        changes.upsert(row);
        expected.add(row);
      }
      writer.commit(changes.txn("audit:t:0", writer.snapshot().txnVersion("audit:t:0"), commit * 10L + 9).build());
    }
    Row withUnchanged = Row.of(Unchanged.VALUE, "u", 30L);
    writer.commit(ChangeSet.builder().upsert(withUnchanged).build());
    expected.add(Row.of(null, "u", 30L));

    assertThat(protocol.minReaderVersion()).isEqualTo(1);
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(KernelTables.txnVersion(table.root(), "audit:t:0")).contains(29L);
    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().delete(Row.of(1L)).build()))
        .isInstanceOf(InvalidChangeSetException.class).hasMessageContaining("append");
  }
}
