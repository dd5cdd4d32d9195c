package io.mergesink.core.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.testing.TestAzurite;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What is particular to Azure: its paths, directory blobs of a hierarchical namespace, one account per storage, request kinds. */
class AzureStorageTest {
  @Test
  void abfssAndWasbsPathsNameTheSameBlobsThroughTheBlobEndpoint() {
    AzureLocation dfs = AzureLocation.parse("abfss://lake@acct.dfs.core.windows.net/tables/t/_delta_log/0.json");
    AzureLocation blob = AzureLocation.parse("wasbs://lake@acct.blob.core.windows.net//tables/t/_delta_log/0.json");
    assertThat(dfs.container()).isEqualTo("lake");
    assertThat(dfs.account()).isEqualTo("acct");
    assertThat(dfs.name()).isEqualTo(blob.name()).isEqualTo("tables/t/_delta_log/0.json");
    assertThat(dfs.blobEndpoint()).isEqualTo(blob.blobEndpoint()).isEqualTo("https://acct.blob.core.windows.net");
    assertThat(AzureLocation.parse("abfss://lake@acct.dfs.core.chinacloudapi.cn/t").blobEndpoint())
        .isEqualTo("https://acct.blob.core.chinacloudapi.cn");
    assertThat(dfs).hasToString("abfss://lake@acct.dfs.core.windows.net/tables/t/_delta_log/0.json");
  }

  @Test
  void pathsWithoutContainerOrOverPlainHttpAreRefused() {
    assertThatThrownBy(() -> AzureLocation.parse("abfss://acct.dfs.core.windows.net/t"))
        .hasMessageContaining("without container@account");
    assertThatThrownBy(() -> AzureLocation.parse("abfs://lake@acct.dfs.core.windows.net/t"))
        .hasMessageContaining("abfs:// means plain HTTP; use abfss://");
    assertThatThrownBy(() -> AzureLocation.parse("s3://bucket/t")).hasMessageContaining("not an Azure Blob path");
  }

  @Test
  void secretsNeverShowInOptions() {
    AzureOptions options = AzureOptions.defaults().withCredentials(new AzureOptions.AccountKey("c2VjcmV0"));
    assertThat(options.toString()).doesNotContain("c2VjcmV0");
    assertThat(new AzureOptions.SasToken("?sv=1&sig=abc")).hasToString("SasToken[(hidden)]")
        .extracting(AzureOptions.SasToken::token).isEqualTo("sv=1&sig=abc");
  }

  /** ADLS Gen2 (and Hadoop's ABFS) keep a directory as a blob with {@code hdi_isfolder=true}: it is no file. */
  @Test
  void directoryBlobsOfAHierarchicalNamespaceAreNotListedAsFiles() throws Exception {
    String container = TestAzurite.createContainer("folders");
    String root = "abfss://" + container + "@" + TestAzurite.ACCOUNT + ".dfs.core.windows.net/t";
    BlobContainerClient raw = TestAzurite.serviceClient().getBlobContainerClient(container);
    raw.getBlobClient("t/_delta_log").uploadWithResponse(new BlobParallelUploadOptions(BinaryData.fromBytes(new byte[0]))
        .setMetadata(Map.of("hdi_isfolder", "true")), null, null);
    raw.getBlobClient("t/p=1").uploadWithResponse(new BlobParallelUploadOptions(BinaryData.fromBytes(new byte[0]))
        .setMetadata(Map.of("hdi_isfolder", "true")), null, null);
    try (AzureStorage storage = AzureStorage.create(root, TestAzurite.azureOptions())) {
      assertThat(storage.writeIfAbsent(root + "/_delta_log/00000000000000000000.json", "{}".getBytes(StandardCharsets.UTF_8))).isTrue();
      try (OutputStream out = storage.create(root + "/p=1/part-0.parquet")) {
        out.write(new byte[3]);
      }
      assertThat(storage.listFrom(root, "")).as("files directly under the table").isEmpty();
      assertThat(storage.listFrom(root + "/_delta_log", "")).extracting(Storage.FileInfo::name)
          .containsExactly("00000000000000000000.json");
      assertThat(storage.listRecursive(root)).extracting(Storage.FileInfo::name)
          .containsExactly("_delta_log/00000000000000000000.json", "p=1/part-0.parquet");
      assertThat(storage.listDirectories(root)).containsExactly(root + "/_delta_log", root + "/p=1");
    }
  }

  @Test
  void aStorageServesTheAccountOfItsRootOnly() {
    try (AzureStorage storage = AzureStorage.create("wasbs://c@" + TestAzurite.ACCOUNT + ".blob.core.windows.net/t",
        TestAzurite.azureOptions())) {
      assertThatThrownBy(() -> storage.readAll("wasbs://c@otheraccount.blob.core.windows.net/t/x"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not in storage account " + TestAzurite.ACCOUNT);
    }
  }

  @Test
  void aDiscardedStreamLeavesNoBlobAndEachRequestIsCountedByKind() throws Exception {
    String container = TestAzurite.createContainer("counts");
    String root = "wasbs://" + container + "@" + TestAzurite.ACCOUNT + ".blob.core.windows.net/t";
    try (AzureStorage storage = AzureStorage.create(root, TestAzurite.azureOptions())) {
      RequestCounts before = storage.requests();
      try (var pending = storage.createPending(root + "/big")) {
        pending.stream().write(new byte[TestAzurite.azureOptions().blockSizeBytes() + 1]);
        // closed unpublished: one block staged, never committed
      }
      assertThat(storage.exists(root + "/big")).isFalse();
      assertThat(storage.writeIfAbsent(root + "/c", new byte[] {1})).isTrue();
      assertThat(storage.readRange(root + "/c", 0, 1)).containsExactly(1);
      assertThat(storage.readAll(root + "/c")).containsExactly(1);
      assertThat(storage.listFrom(root, "")).hasSize(1);
      assertThat(storage.delete(root + "/c")).isTrue();
      assertThat(storage.delete(root + "/c")).as("a missing blob").isFalse();
      RequestCounts counts = storage.requests().minus(before);

      assertThat(counts.get(RequestKind.MULTIPART)).as("%s", counts).isEqualTo(1);
      assertThat(counts.get(RequestKind.HEAD)).as("%s", counts).isEqualTo(1);
      assertThat(counts.get(RequestKind.CONDITIONAL_PUT)).as("%s", counts).isEqualTo(1);
      assertThat(counts.get(RequestKind.RANGED_GET)).as("%s", counts).isEqualTo(1);
      assertThat(counts.get(RequestKind.GET)).as("%s", counts).isEqualTo(1);
      assertThat(counts.get(RequestKind.LIST)).as("%s", counts).isEqualTo(1);
      assertThat(counts.get(RequestKind.DELETE)).as("%s", counts).isEqualTo(2);
      assertThat(counts.total()).as("%s", counts).isEqualTo(8);
    }
  }
}
