package io.mergesink.core.testing;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.mergesink.core.storage.azure.AzureLocation;
import io.mergesink.core.storage.azure.AzureOptions;
import io.mergesink.localazurite.LocalAzurite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Azure Blob service for tests: a {@link LocalAzurite} with its data in a temp dir, started
 * on first use and shared by every test of the JVM; it stops when the JVM exits. Tests keep apart
 * by using containers of their own.
 *
 * <p>Without an {@code azurite-blob} command ({@link LocalAzurite#command()}), a test that needs
 * Azurite fails on CI (the environment variable {@code CI} is set; {@code .ci/run} installs
 * Azurite) and is skipped with a message elsewhere, so that a developer without Node.js can run the
 * other tests.
 */
public final class TestAzurite {
  public static final String ACCOUNT = LocalAzurite.ACCOUNT;
  public static final String ACCOUNT_KEY = LocalAzurite.ACCOUNT_KEY;

  private static LocalAzurite server;

  private TestAzurite() {}

  /** The shared Azurite server; skips (locally) or fails (CI) the calling test when Azurite is not installed. */
  public static synchronized LocalAzurite azurite() {
    if (server == null) {
      server = LocalAzurite.start(command());
      LocalAzurite started = server;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-test-azurite"));
    }
    return server;
  }

  /** A new empty container on the shared server, and the root {@code wasbs://<container>@devstoreaccount1.blob.core.windows.net/tables}. */
  public static String azureRoot(String container) {
    return "wasbs://" + createContainer(container) + "@" + ACCOUNT + ".blob.core.windows.net/tables";
  }

  /** Creates {@code container} on the shared server; returns its name. */
  public static String createContainer(String container) {
    serviceClient().createBlobContainerIfNotExists(container);
    return container;
  }

  /** Options that reach the shared server with the development account's key; few retries so that a test fails fast. */
  public static AzureOptions azureOptions() {
    return AzureOptions.defaults()
        .withEndpoint(azurite().accountEndpoint())
        .withCredentials(new AzureOptions.AccountKey(ACCOUNT_KEY))
        .withBlockSize(AzureOptions.MIN_BLOCK_SIZE_BYTES * 5)
        .withRequests(Duration.ofSeconds(30), 2);
  }

  /** A client of the shared server that is not MergeSink's: for setting containers up and reading tables back. */
  public static BlobServiceClient serviceClient() {
    return new BlobServiceClientBuilder().endpoint(azurite().accountEndpoint().toString())
        .credential(new StorageSharedKeyCredential(ACCOUNT, ACCOUNT_KEY)).buildClient();
  }

  /**
   * Copies every blob under {@code root} (an abfss:// or wasbs:// path on the shared server) into
   * {@code target} with the SDK's own client, not MergeSink's storage, so that Delta Kernel can read
   * a table back from local disk (it reads Azure only through Hadoop's ABFS, which needs a DFS
   * endpoint Azurite does not have). Returns {@code target}.
   */
  public static Path download(String root, Path target) throws IOException {
    AzureLocation location = AzureLocation.parse(root);
    String prefix = location.name().endsWith("/") ? location.name() : location.name() + "/";
    BlobContainerClient container = serviceClient().getBlobContainerClient(location.container());
    for (BlobItem item : container.listBlobs(new ListBlobsOptions().setPrefix(prefix), null)) {
      Path file = target.resolve(item.getName().substring(prefix.length()));
      Files.createDirectories(file.getParent());
      Files.write(file, container.getBlobClient(item.getName()).downloadContent().toBytes());
    }
    return target;
  }

  /**
   * Lets {@link KernelTables} read wasbs:// and abfss:// tables on the shared server in place,
   * through {@link AzuriteFileSystem}.
   */
  public static void kernelReadsAzure() {
    azurite();
    KernelTables.configure(Map.of("fs.wasbs.impl", AzuriteFileSystem.class.getName(),
        "fs.abfss.impl", AzuriteFileSystem.class.getName()));
  }

  private static String command() {
    Optional<String> found = LocalAzurite.command();
    if (found.isEmpty()) {
      if (System.getenv("CI") != null) {
        throw new IllegalStateException(LocalAzurite.howToInstall() + "; CI must run the Azure tests (.ci/run installs Azurite)");
      }
      Assumptions.abort(LocalAzurite.howToInstall());
    }
    return found.get();
  }
}
