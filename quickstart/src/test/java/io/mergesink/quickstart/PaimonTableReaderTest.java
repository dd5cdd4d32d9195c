package io.mergesink.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's view of a deletion-vector table between a commit's {@code APPEND} snapshot and its compaction. */
class PaimonTableReaderTest {
  private static final Identifier ORDERS = Identifier.create("public", "orders");

  @TempDir
  Path root;

  @Test
  void rowsOfAnAppendSnapshotCountOnceItsCompactionLands() throws Exception {
    try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(Map.of("warehouse", root.toString()))));
        PaimonTableReader reader = new PaimonTableReader(root.toString(), "public/orders", "demo", "shop.public.orders")) {
      catalog.createDatabase("public", false);
      catalog.createTable(ORDERS, Schema.newBuilder()
          .column("id", DataTypes.INT().notNull()).column("status", DataTypes.STRING())
          .primaryKey("id").option("bucket", "1").option("deletion-vectors.enabled", "true").build(), false);
      FileStoreTable table = (FileStoreTable) catalog.getTable(ORDERS);

      commit(table.copy(Map.of("write-only", "true")), write -> {
        write.write(GenericRow.of(1, BinaryString.fromString("new")));
        write.write(GenericRow.of(2, BinaryString.fromString("paid")));
      });
      assertThat(table.snapshotManager().latestSnapshot().commitKind()).isEqualTo(Snapshot.CommitKind.APPEND);
      assertThat(reader.state()).as("level 0 only: no rows a reader sees yet").contains(new TableState(0, 0, Map.of()));
      assertThat(reader.rows()).containsExactly(List.of("id", "status"));

      commit(table, write -> write.compact(BinaryRow.EMPTY_ROW, 0, true));
      long compacted = table.snapshotManager().latestSnapshotId();
      assertThat(reader.state()).contains(new TableState(compacted, 2, Map.of()));
      assertThat(reader.rows()).containsExactlyInAnyOrder(List.of("id", "status"), List.of("1", "new"), List.of("2", "paid"));
    }
  }

  private interface Writes {
    void to(BatchTableWrite write) throws Exception;
  }

  private void commit(FileStoreTable table, Writes writes) throws Exception {
    BatchWriteBuilder builder = table.newBatchWriteBuilder();
    // the compaction of a deletion-vector table looks rows up in files it spills to local disk
    try (IOManager spill = IOManager.create(root.resolve("spill").toString());
        BatchTableWrite write = builder.newWrite().withIOManager(spill); BatchTableCommit commit = builder.newCommit()) {
      writes.to(write);
      commit.commit(write.prepareCommit());
    }
  }
}
