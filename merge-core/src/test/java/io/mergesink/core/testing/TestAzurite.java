package io.mergesink.core.testing;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.mergesink.core.storage.azure.AzureLocation;
import io.mergesink.core.storage.azure.AzureOptions;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Azure Blob service for tests: Azurite's blob service (the npm package {@code azurite}, run
 * by Node.js) on a free port of 127.0.0.1 with its data in a temp dir, started on first use and
 * shared by every test of the JVM; it stops when the JVM exits. Tests keep apart by using
 * containers of their own.
 *
 * <p>The {@code azurite-blob} command is the system property {@value #COMMAND_PROPERTY}, else the
 * environment variable {@value #COMMAND_VARIABLE}, else {@code azurite-blob} on the PATH (
 * {@code npm install -g azurite}). Without it, a test that needs Azurite fails on CI (the
 * environment variable {@code CI} is set; {@code .ci/run} installs Azurite) and is skipped with a
 * message elsewhere, so that a developer without Node.js can run the other tests.
 */
public final class TestAzurite {
  /** Azurite's well-known development account and key (public, in Azure's documentation). */
  public static final String ACCOUNT = "devstoreaccount1";
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  public static final String COMMAND_PROPERTY = "mergesink.azurite.command";
  public static final String COMMAND_VARIABLE = "AZURITE_BLOB";
  private static final String COMMAND = "azurite-blob";
  private static final Pattern LISTENING = Pattern.compile("successfully listens on (http://\\S+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private static Server server;

  private TestAzurite() {}

  /** A running Azurite blob service and where its data lives. */
  public record Server(Process process, URI serviceUrl, Path dataDir) {
    /** The Blob service URL of the development account, {@code http://127.0.0.1:<port>/devstoreaccount1}. */
    public URI accountEndpoint() {
      return URI.create(serviceUrl + "/" + ACCOUNT);
    }

    void stop() {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      try (Stream<Path> files = Files.walk(dataDir)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      } catch (IOException e) {
        // a temp dir; the system cleans it
      }
    }
  }

  /** The shared Azurite server; skips (locally) or fails (CI) the calling test when Azurite is not installed. */
  public static synchronized Server azurite() {
    if (server == null) {
      server = start(command());
      Server started = server;
      Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "stop-test-azurite"));
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

  private static String command() {
    Optional<String> configured = Optional.ofNullable(System.getProperty(COMMAND_PROPERTY))
        .or(() -> Optional.ofNullable(System.getenv(COMMAND_VARIABLE))).filter(value -> !value.isBlank());
    Optional<String> found = configured.isPresent() ? configured : onPath();
    if (found.isEmpty()) {
      String why = "Azurite (" + COMMAND + ") not found: set -D" + COMMAND_PROPERTY + " or " + COMMAND_VARIABLE
          + " to its path, or put it on the PATH (npm install -g azurite; needs Node.js)";
      if (System.getenv("CI") != null) {
        throw new IllegalStateException(why + "; CI must run the Azure tests (.ci/run installs Azurite)");
      }
      Assumptions.abort(why);
    }
    return found.get();
  }

  private static Optional<String> onPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, COMMAND);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate.toString());
      }
    }
    return Optional.empty();
  }

  /** Starts Azurite on a port it picks and waits for the line saying where it listens. */
  private static Server start(String command) {
    Process process = null;
    try {
      Path dataDir = Files.createTempDirectory("mergesink-azurite-");
      process = new ProcessBuilder(command, "--blobHost", "127.0.0.1", "--blobPort", "0", "--location",
          dataDir.toString(), "--skipApiVersionCheck", "--loose", "--silent")
          .redirectErrorStream(true).start();
      BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      List<String> lines = new ArrayList<>();
      Process started = process;
      Thread watchdog = daemon("azurite-start-watchdog", () -> {
        try {
          if (!started.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            started.destroy();
          }
        } catch (InterruptedException e) {
          // Azurite is up: the watchdog is no longer needed
        }
      });
      String line;
      while ((line = output.readLine()) != null) {
        lines.add(line);
        Matcher listening = LISTENING.matcher(line);
        if (listening.find()) {
          watchdog.interrupt();
          daemon("azurite-output", () -> drain(output));
          return new Server(process, URI.create(listening.group(1)), dataDir);
        }
      }
      throw new IllegalStateException("Azurite (" + command + ") exited or did not start within " + START_TIMEOUT
          + ": " + String.join(" | ", lines));
    } catch (IOException e) {
      if (process != null) {
        process.destroyForcibly();
      }
      throw new UncheckedIOException("cannot start Azurite (" + command + ")", e);
    }
  }

  private static Thread daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Reads Azurite's output to the end, so that a full pipe never blocks it. */
  private static void drain(BufferedReader output) {
    try {
      while (output.readLine() != null) {
        // nothing to keep: --silent leaves only errors, which surface in the tests' requests
      }
    } catch (IOException e) {
      // Azurite stopped
    }
  }
}
