package io.mergesink.core.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.RandomMerges;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta tables on Azure Blob Storage (Azurite) through the storage {@link Storages} picks for
 * {@code abfss://}: written through {@link AzureStorage}, then copied blob by blob with the Azure
 * SDK's own client (not MergeSink's storage) to a local directory that Delta Kernel reads back.
 */
class AzureTableTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));
  private static final String APP = "azure-test:topic:0";
  private static final int NO_CHECKPOINT = 1_000;

  @Test
  void deletionVectorMergesOnAzureReadBackWithKernel(@TempDir Path copy) throws Exception {
    String container = TestAzurite.createContainer("table-merges");
    String root = "abfss://" + container + "@" + TestAzurite.ACCOUNT + ".dfs.core.windows.net/lake/merges";
    try (Storage storage = Storages.forRoot(root, StorageOptions.defaults().withAzure(TestAzurite.azureOptions()))) {
      assertThat(storage).isInstanceOf(AzureStorage.class);
      DeltaTable table = DeltaTable.forPath(storage, root);
      table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
      TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(5));
      Map<Long, Row> model = RandomMerges.commit(writer, APP, 12, 19);

      Path local = TestAzurite.download(root, copy);
      assertThat(KernelTables.readRows(local.toString())).containsExactlyInAnyOrderElementsOf(model.values());
      assertThat(KernelTables.txnVersion(local.toString(), APP)).contains(12L);
      assertThat(KernelTables.latestVersion(local.toString())).isEqualTo(12);
      assertThat(storage.listFrom(root + "/_delta_log", "")).extracting(Storage.FileInfo::name)
          .contains("00000000000000000010.checkpoint.parquet", "_last_checkpoint");
    }
  }

  @Test
  void aCommitIsTwoBlobPutsAndOneConditionalPut() throws Exception {
    String container = TestAzurite.createContainer("table-costs");
    String root = "wasbs://" + container + "@" + TestAzurite.ACCOUNT + ".blob.core.windows.net/lake/costs";
    try (AzureStorage storage = AzureStorage.create(root, TestAzurite.azureOptions())) {
      DeltaTable table = DeltaTable.forPath(storage, root);
      table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
      TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(NO_CHECKPOINT));
      ChangeSet.Builder rows = ChangeSet.builder();
      for (long id = 0; id < 10; id++) {
        rows.upsert(Row.of(id, "loaded"));
      }
      writer.commit(rows.build());

      RequestCounts before = storage.requests();
      writer.commit(ChangeSet.builder().upsert(Row.of(3L, "updated")).build());
      RequestCounts commit = storage.requests().minus(before);

      // the new data file, the deletion vector file, the commit; no lookups, no listing
      assertThat(commit.get(RequestKind.PUT)).as("%s", commit).isEqualTo(2);
      assertThat(commit.get(RequestKind.CONDITIONAL_PUT)).as("%s", commit).isEqualTo(1);
      assertThat(commit.get(RequestKind.HEAD)).as("%s", commit).isZero();
      assertThat(commit.get(RequestKind.LIST)).as("%s", commit).isZero();
    }
  }
}
