package io.mergesink.quickstart;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.azure.AzureOptions;
import io.mergesink.core.storage.azure.AzureStorage;
import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.core.storage.s3.S3Storage;
import io.mergesink.localazurite.LocalAzurite;
import io.mergesink.locals3.LocalS3;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where the demo's table lives: a local directory, a bucket of a throwaway S3 server (S3Proxy) that
 * the demo starts and stops, storing its objects as plain files under the table directory, or a
 * container of a throwaway Azure Blob service (Azurite) that the demo starts and stops, its data
 * under the table directory in Azurite's own format; the table is copied from it to a local directory at the end.
 *
 * <p>The caller owns the location and must {@link #close()} it (stops the server).
 */
final class TableLocation implements AutoCloseable {
  /** The bucket of the S3 mode, the container of the Azure mode. */
  static final String BUCKET = "lake";
  /** Where, under the table directory, the S3 server keeps its buckets. */
  static final String S3_DATA_DIR = "s3-data";
  /** Where, under the table directory, Azurite keeps its data. */
  static final String AZURITE_DATA_DIR = "azurite-data";
  /** Where, under the table directory, the Azure mode copies its tables at the end. */
  static final String AZURE_COPY_DIR = "azure-copy";

  private final String root;
  private final Storage storage;
  private final Map<String, String> sinkOptions;
  private final AutoCloseable server;
  private final List<String> description;
  private final Path localCopy;
  private final LocalCopy copy;

  /** How the table comes to a local directory: it is one already (S3Proxy's files), or it is downloaded. */
  private enum LocalCopy { NONE, SERVER_FILES, DOWNLOADED }

  private TableLocation(String root, Storage storage, Map<String, String> sinkOptions, AutoCloseable server,
      List<String> description, Path localCopy, LocalCopy copy) {
    this.root = root;
    this.storage = storage;
    this.sinkOptions = sinkOptions;
    this.server = server;
    this.description = description;
    this.localCopy = localCopy;
    this.copy = copy;
  }

  /** Tables under the local directory {@code tableDir}. */
  static TableLocation local(Path tableDir) {
    String root = tableDir.toAbsolutePath().normalize().toString();
    return new TableLocation(root, new LocalStorage(), Map.of("table.root", root), null,
        List.of("Table root:      " + root + " (kept after the demo)"), null, LocalCopy.NONE);
  }

  /** Tables in bucket {@value #BUCKET} of an S3 server started now, its objects under {@code tableDir}/{@value #S3_DATA_DIR}. */
  static TableLocation s3(Path tableDir) {
    Path data = tableDir.toAbsolutePath().normalize().resolve(S3_DATA_DIR);
    LocalS3 server = LocalS3.start(data);
    server.createBucket(BUCKET);
    S3Options options = S3Options.defaults().withRegion(LocalS3.REGION).withEndpoint(URI.create(server.endpoint()))
        .withPathStyle(true).withCredentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY);
    String root = "s3://" + BUCKET + "/tables";
    Map<String, String> sinkOptions = Map.of("table.root", root, "s3.endpoint", server.endpoint(),
        "s3.path.style.access.enabled", "true", "s3.region", LocalS3.REGION, "aws.access.key.id", LocalS3.ACCESS_KEY,
        "aws.secret.access.key", LocalS3.SECRET_KEY);
    List<String> description = List.of("Table root:      " + root + " on a local S3 server (S3Proxy) at " + server.endpoint(),
        "                 its objects are plain files under " + data.resolve(BUCKET) + " (kept after the demo)");
    return new TableLocation(root, S3Storage.create(options), sinkOptions, server, description,
        data.resolve(BUCKET).resolve("tables"), LocalCopy.SERVER_FILES);
  }

  /**
   * Tables in container {@value #BUCKET} of an Azurite started now, its data under
   * {@code tableDir}/{@value #AZURITE_DATA_DIR}; the sink keeps the credentials of
   * {@code config/mergesink-azure.json} (a SAS token of Azurite's development account).
   *
   * @throws IllegalStateException when Azurite is not installed (the message says how to get it)
   */
  static TableLocation azure(Path tableDir) {
    String command = LocalAzurite.command().orElseThrow(() -> new IllegalStateException(LocalAzurite.howToInstall()));
    Path dir = tableDir.toAbsolutePath().normalize();
    LocalAzurite server = LocalAzurite.start(command, dir.resolve(AZURITE_DATA_DIR));
    new BlobServiceClientBuilder().endpoint(server.accountEndpoint().toString())
        .credential(new StorageSharedKeyCredential(LocalAzurite.ACCOUNT, LocalAzurite.ACCOUNT_KEY)).buildClient()
        .createBlobContainerIfNotExists(BUCKET);
    String root = "abfss://" + BUCKET + "@" + LocalAzurite.ACCOUNT + ".dfs.core.windows.net/tables";
    AzureOptions options = AzureOptions.defaults().withEndpoint(server.accountEndpoint())
        .withCredentials(new AzureOptions.AccountKey(LocalAzurite.ACCOUNT_KEY));
    Map<String, String> sinkOptions = Map.of("table.root", root, "azure.endpoint", server.accountEndpoint().toString());
    List<String> description = List.of("Table root:      " + root + " on a local Azure Blob service (Azurite) at "
        + server.accountEndpoint(), "                 copied to " + dir.resolve(AZURE_COPY_DIR) + " at the end (kept after the demo)");
    return new TableLocation(root, AzureStorage.create(root, options), sinkOptions, server, description,
        dir.resolve(AZURE_COPY_DIR), LocalCopy.DOWNLOADED);
  }

  /** The table root, a local path or {@code s3://...}. */
  String root() {
    return root;
  }

  /** The path of the table {@code relative} to the root. */
  String table(String relative) {
    return root + "/" + relative;
  }

  Storage storage() {
    return storage;
  }

  /** The options that point the sink at this location ({@code table.root}, and the S3 options in S3 mode). */
  Map<String, String> sinkOptions() {
    return sinkOptions;
  }

  /** What to tell the user about this location, one line each. */
  List<String> describe() {
    return description;
  }

  /** What the demo stops with its location, for the closing message; empty for a local directory. */
  String serverName() {
    return switch (copy) {
      case NONE -> "";
      case SERVER_FILES -> "the S3 server";
      case DOWNLOADED -> "Azurite";
    };
  }

  /**
   * For a table in an object store: the table as a local directory, so local readers can open it
   * once the server has stopped (S3Proxy keeps each object as a file named by its key; Azurite's
   * blobs are downloaded into {@value #AZURE_COPY_DIR} now); null for a local table.
   */
  Path localCopyOf(String relative) {
    if (copy == LocalCopy.NONE) {
      return null;
    }
    Path target = localCopy.resolve(relative);
    if (copy == LocalCopy.DOWNLOADED) {
      download(table(relative), target);
    }
    return target;
  }

  /** What the summary says about {@link #localCopyOf}'s directory {@code path}, one line each. */
  List<String> localCopyNote(Path path) {
    return switch (copy) {
      case NONE -> List.of();
      case SERVER_FILES -> List.of("The demo's S3 server has stopped. It kept every object as a file named by its key, so the",
          "same table is the local directory " + path + " (on S3, readers take the S3 endpoint and keys",
          "of config/mergesink-s3.json, e.g. Spark's fs.s3a.* settings or DuckDB's CREATE SECRET (TYPE s3)).");
      case DOWNLOADED -> List.of("The demo's Azurite stops with the demo; the table's blobs were copied to the local directory",
          path + " (on Azure, readers take the account and credentials of config/mergesink-azure.json,",
          "e.g. Spark's fs.azure.sas.* or fs.azure.account.key.* settings, or DuckDB's CREATE SECRET (TYPE azure)).");
    };
  }

  /** Copies every file of the table {@code table} into {@code target}, through the location's storage. */
  private void download(String table, Path target) {
    try {
      for (Storage.FileInfo file : storage.listRecursive(table)) {
        Path local = target.resolve(file.name());
        Files.createDirectories(local.getParent());
        Files.write(local, storage.readAll(file.path()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("copying the table " + table + " to " + target, e);
    }
  }

  @Override
  public void close() {
    storage.close();
    if (server != null) {
      try {
        server.close();
      } catch (Exception e) {
        throw new IllegalStateException("stopping " + serverName(), e);
      }
    }
  }
}
