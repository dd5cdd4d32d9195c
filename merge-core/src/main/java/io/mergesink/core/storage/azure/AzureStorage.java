package io.mergesink.core.storage.azure;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlobInputStreamOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.RangedInputFile;
import io.mergesink.core.storage.RequestCounter;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StreamOutputFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * {@link Storage} on Azure Blob Storage and ADLS Gen2 ({@code abfss://} and {@code wasbs://} paths,
 * {@link AzureLocation}) over the Azure SDK's Blob API, with no lock service (docs/storage.md):
 * <ul>
 *   <li>commits: Put Blob with {@code If-None-Match: *}; 409 {@code BlobAlreadyExists} (or 412)
 *       means another writer has the version;
 *   <li>data, deletion vector and other files: streamed, staged blocks and one Put Block List for
 *       files larger than one block ({@link AzureOutputStream});
 *   <li>Parquet and deletion vectors: ranged Get Blob ({@link RangedInputFile}, {@link #readRange});
 *   <li>listings: List Blobs by prefix and {@code /} delimiter, from a start name ({@code startFrom})
 *       where the service supports it, page by page.
 * </ul>
 * Flat and hierarchical-namespace (ADLS Gen2) accounts alike: the Blob API serves both, and the
 * directory entries of a hierarchical namespace ({@code hdi_isfolder} blobs) are left out of
 * listings. {@link #mkdirs} makes no request: writing a blob creates its parent directories there.
 * One storage serves the blobs of one account (that of the table root). Thread-safe, like the client.
 */
public final class AzureStorage implements Storage {
  private static final String DELIMITER = "/";
  /** The metadata Hadoop's ABFS and the DFS endpoint put on the blob of a directory. */
  private static final String FOLDER_METADATA = "hdi_isfolder";
  private static final int BAD_REQUEST = 400;

  private final AzureRequests requests;
  private final int blockSizeBytes;
  /** Cleared when the service refuses {@code startFrom} (an older service version); listings then filter every name. */
  private final AtomicBoolean startFromSupported = new AtomicBoolean(true);

  private AzureStorage(AzureRequests requests, int blockSizeBytes) {
    this.requests = requests;
    this.blockSizeBytes = blockSizeBytes;
  }

  /**
   * A storage with its own client for the account of {@code root}.
   *
   * @throws IllegalArgumentException {@code root} is not an abfss:// or wasbs:// URI
   */
  public static AzureStorage create(String root, AzureOptions options) {
    AzureLocation location = AzureLocation.parse(root);
    RequestCounter counter = new RequestCounter();
    return new AzureStorage(new AzureRequests(AzureClients.create(location, options, counter), location.account(), counter),
        options.blockSizeBytes());
  }

  /**
   * Put Blob with {@code If-None-Match: *}. An answer that the blob exists, for a blob holding
   * exactly {@code content}, counts as created: the SDK retries a request whose answer was lost,
   * and the retry of a put that had succeeded finds its own blob.
   */
  @Override
  public boolean writeIfAbsent(String path, byte[] content) throws IOException {
    AzureLocation location = AzureLocation.parse(path);
    try {
      requests.call(location, "conditional Put Blob", () -> requests.blob(location).uploadWithResponse(
          new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(content)).setRequestConditions(AzureRequests.ifAbsent()),
          null, Context.NONE));
      return true;
    } catch (IOException e) {
      if (AzureRequests.blobExisted(e)) {
        return Arrays.equals(readAll(path), content);
      }
      throw e;
    }
  }

  @Override
  public OutputStream create(String path) {
    return new AzureOutputStream(requests, AzureLocation.parse(path), blockSizeBytes);
  }

  /** Streamed like {@link #create}, published by Put Blob or Put Block List with {@code If-None-Match: *}. */
  @Override
  public PendingFile createPending(String path) {
    return new AzureOutputStream(requests, AzureLocation.parse(path), blockSizeBytes).pending();
  }

  /** A stream of successive ranged reads, a block size each (the SDK's blob input stream). */
  @Override
  public InputStream open(String path) throws IOException {
    AzureLocation location = AzureLocation.parse(path);
    return requests.call(location, "Get Blob", () -> requests.blob(location).openInputStream(
        new BlobInputStreamOptions().setBlockSize(blockSizeBytes)));
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    AzureLocation location = AzureLocation.parse(path);
    return requests.call(location, "Get Blob", () -> requests.blob(location).downloadContent().toBytes());
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    return range(AzureLocation.parse(path), offset, length);
  }

  /** {@code length} bytes at {@code offset}, in one Get Blob with {@code x-ms-range}. */
  private byte[] range(AzureLocation location, long offset, int length) throws IOException {
    if (length == 0) {
      return new byte[0];
    }
    byte[] bytes = requests.call(location, "Get Blob bytes=" + offset + "-" + (offset + length - 1), () -> requests.blob(location)
        .downloadContentWithResponse(null, null, new BlobRange(offset, (long) length), false, null, Context.NONE)
        .getValue().toBytes());
    if (bytes.length != length) {
      throw new IOException("blob " + location + " ends before byte " + (offset + length) + " (read " + bytes.length
          + " of " + length + " bytes at offset " + offset + ")");
    }
    return bytes;
  }

  /** The blob's size, from one Get Blob Properties. */
  private long length(AzureLocation location) throws IOException {
    return requests.call(location, "Get Blob Properties", () -> requests.blob(location).getProperties().getBlobSize());
  }

  /**
   * List Blobs pages (up to 5,000 names each) under the directory, starting at {@code fromName}:
   * the cost is the number of files at or after it, not the directory's size, where the service
   * takes {@code startFrom}; names before {@code fromName} are filtered out in any case.
   */
  @Override
  public List<FileInfo> listFrom(String directory, String fromName) throws IOException {
    AzureLocation dir = AzureLocation.parse(directory);
    String prefix = dir.directoryPrefix();
    List<FileInfo> files = new ArrayList<>();
    for (BlobItem item : hierarchy(dir, fromName.isEmpty() ? null : prefix + fromName)) {
      String name = item.getName().substring(prefix.length());
      if (!Boolean.TRUE.equals(item.isPrefix()) && !isFolder(item) && !name.isEmpty() && name.compareTo(fromName) >= 0) {
        files.add(info(dir, item, name));
      }
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public List<String> listDirectories(String directory) throws IOException {
    AzureLocation dir = AzureLocation.parse(directory);
    List<String> directories = new ArrayList<>();
    for (BlobItem item : hierarchy(dir, null)) {
      if (Boolean.TRUE.equals(item.isPrefix())) {
        String name = item.getName();
        directories.add(dir.pathOf(name.endsWith(DELIMITER) ? name.substring(0, name.length() - 1) : name));
      }
    }
    directories.sort(Comparator.naturalOrder());
    return directories;
  }

  @Override
  public List<FileInfo> listRecursive(String directory) throws IOException {
    AzureLocation dir = AzureLocation.parse(directory);
    String prefix = dir.directoryPrefix();
    ListBlobsOptions options = new ListBlobsOptions().setPrefix(prefix)
        .setDetails(new BlobListDetails().setRetrieveMetadata(true));
    List<FileInfo> files = requests.call(dir, "List Blobs", () -> {
      List<FileInfo> found = new ArrayList<>();
      for (BlobItem item : requests.container(dir).listBlobs(options, null)) {
        String name = item.getName().substring(prefix.length());
        if (!name.isEmpty() && !name.endsWith(DELIMITER) && !isFolder(item)) {
          found.add(info(dir, item, name));
        }
      }
      return found;
    });
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public boolean exists(String path) throws IOException {
    AzureLocation location = AzureLocation.parse(path);
    try {
      length(location);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    AzureLocation location = AzureLocation.parse(path);
    return requests.call(location, "Delete Blob", () -> requests.blob(location)
        .deleteIfExistsWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, null, Context.NONE).getValue());
  }

  /** Nothing to do: blobs need no directories, and a hierarchical namespace creates a blob's parents with it. */
  @Override
  public void mkdirs(String directory) {
    AzureLocation.parse(directory);
  }

  @Override
  public InputFile parquetInput(String path) {
    AzureLocation location = AzureLocation.parse(path);
    return new RangedInputFile(location.toString(), new RangedInputFile.Ranges() {
      @Override
      public long length() throws IOException {
        return AzureStorage.this.length(location);
      }

      @Override
      public byte[] read(long offset, int length) throws IOException {
        return range(location, offset, length);
      }
    });
  }

  @Override
  public OutputFile parquetOutput(String path) {
    AzureLocation location = AzureLocation.parse(path);
    return new StreamOutputFile(path, () -> new AzureOutputStream(requests, location, blockSizeBytes));
  }

  /** API calls by kind; the SDK's retries of a call are not counted again. */
  @Override
  public RequestCounts requests() {
    return requests.counter.read();
  }

  @Override
  public RequestCounts requestsOfThisThread() {
    return requests.counter.readThisThread();
  }

  /** The JDK HTTP client needs no closing; its connections close when idle. */
  @Override
  public void close() {}

  /**
   * The blobs and prefixes directly under {@code dir} (metadata included, to tell directory blobs),
   * from {@code startFrom} when given, every page read.
   */
  private List<BlobItem> hierarchy(AzureLocation dir, String startFrom) throws IOException {
    ListBlobsOptions options = new ListBlobsOptions().setPrefix(dir.directoryPrefix())
        .setDetails(new BlobListDetails().setRetrieveMetadata(true));
    if (startFrom != null && startFromSupported.get()) {
      options.setStartFrom(startFrom);
    }
    try {
      return requests.call(dir, "List Blobs", () -> requests.container(dir).listBlobsByHierarchy(DELIMITER, options, null).stream().toList());
    } catch (IOException e) {
      if (options.getStartFrom() != null && e.getCause() instanceof BlobStorageException azure
          && azure.getStatusCode() == BAD_REQUEST) {
        startFromSupported.set(false);
        return hierarchy(dir, null);
      }
      throw e;
    }
  }

  private static boolean isFolder(BlobItem item) {
    Map<String, String> metadata = item.getMetadata();
    return metadata != null && "true".equalsIgnoreCase(metadata.get(FOLDER_METADATA));
  }

  private static FileInfo info(AzureLocation dir, BlobItem item, String name) {
    return new FileInfo(dir.pathOf(item.getName()), name, item.getProperties().getContentLength(),
        item.getProperties().getLastModified().toInstant().toEpochMilli());
  }
}
