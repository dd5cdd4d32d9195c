package io.mergesink.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TestHdfs;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Delta table on HDFS (MiniDFSCluster) through the storage {@link Storages} picks for hdfs://, read back by Delta Kernel. */
class HdfsTableTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));

  @Test
  void deletionVectorMergesOnHdfsReadBackWithKernel() throws Exception {
    String root = TestHdfs.hdfsRoot("tables/merges");
    try (Storage storage = Storages.forRoot(root, Map.of())) {
      assertThat(storage).isInstanceOf(HadoopStorage.class);
      DeltaTable table = DeltaTable.forPath(storage, root);
      table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
      TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(3));
      Map<Long, Row> model = new HashMap<>();
      for (int commit = 1; commit <= 7; commit++) {
        ChangeSet.Builder changes = ChangeSet.builder();
        for (long id = commit; id < 50; id += commit) {
          Row row = Row.of(id, "v" + commit);
          changes.upsert(row);
          model.put(id, row);
        }
        long gone = 50 - commit;
        if (gone % commit != 0) {
          changes.delete(Row.of(gone));
          model.remove(gone);
        }
        writer.commit(changes.txn("hdfs-test:t:0", writer.snapshot().txnVersion("hdfs-test:t:0"), commit).build());
      }

      assertThat(KernelTables.readRows(root)).containsExactlyInAnyOrderElementsOf(model.values());
      assertThat(KernelTables.txnVersion(root, "hdfs-test:t:0")).contains(7L);
      assertThat(storage.listFrom(root + "/_delta_log", "")).extracting(Storage.FileInfo::name)
          .contains("00000000000000000006.checkpoint.parquet").allMatch(name -> !name.endsWith(".tmp"));
    }
  }
}
