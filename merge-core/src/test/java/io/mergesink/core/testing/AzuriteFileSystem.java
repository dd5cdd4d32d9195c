package io.mergesink.core.testing;

import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A read-only Hadoop file system of {@code wasbs://} and {@code abfss://} paths on the tests' Azurite
 * ({@link TestAzurite}), through the Azure SDK's own blob client, not MergeSink's storage: it lets
 * Delta Kernel read tables on Azurite in place ({@link TestAzurite#kernelReadsAzure()}), which
 * Hadoop's ABFS cannot (it needs the DFS endpoint Azurite does not have). A path's container is the
 * URI's user info ({@code container@account.blob.core.windows.net}), its blob name the URI's path;
 * directories are name prefixes, as on a flat account. Files are read whole on open: test tables are small.
 */
public final class AzuriteFileSystem extends FileSystem {
  private static final String DELIMITER = "/";

  private URI uri;
  private BlobContainerClient container;
  private Path workingDirectory;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    uri = URI.create(name.getScheme() + "://" + name.getAuthority());
    container = TestAzurite.serviceClient().getBlobContainerClient(name.getUserInfo());
    workingDirectory = new Path(uri.toString() + DELIMITER);
  }

  @Override
  public String getScheme() {
    return uri.getScheme();
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    try {
      return new FSDataInputStream(new BytesInput(blob(path).downloadContent().toBytes()));
    } catch (BlobStorageException e) {
      throw notFoundOr(path, e);
    }
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    String name = name(path);
    if (!name.isEmpty()) {
      try {
        BlobProperties properties = blob(path).getProperties();
        return file(path, properties.getBlobSize(), properties.getLastModified().toInstant().toEpochMilli());
      } catch (BlobStorageException e) {
        if (e.getStatusCode() != 404) {
          throw notFoundOr(path, e);
        }
      }
    }
    ListBlobsOptions under = new ListBlobsOptions().setPrefix(directoryPrefix(name)).setMaxResultsPerPage(1);
    if (!name.isEmpty() && !container.listBlobs(under, null).iterator().hasNext()) {
      throw new FileNotFoundException("no blob and no blobs under " + path + " on Azurite");
    }
    return directory(path);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    String prefix = directoryPrefix(name(path));
    List<FileStatus> statuses = new ArrayList<>();
    for (BlobItem item : container.listBlobsByHierarchy(DELIMITER, new ListBlobsOptions().setPrefix(prefix), null)) {
      Path child = new Path(uri.toString() + DELIMITER + item.getName());
      if (Boolean.TRUE.equals(item.isPrefix())) {
        statuses.add(directory(child));
      } else {
        statuses.add(file(child, item.getProperties().getContentLength(),
            item.getProperties().getLastModified().toInstant().toEpochMilli()));
      }
    }
    if (statuses.isEmpty()) {
      getFileStatus(path); // a missing directory is not found, an existing one (or a file) lists nothing
    }
    return statuses.toArray(new FileStatus[0]);
  }

  @Override
  public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize, short replication,
      long blockSize, Progressable progress) {
    throw readOnly("create", path);
  }

  @Override
  public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) {
    throw readOnly("append to", path);
  }

  @Override
  public boolean rename(Path source, Path target) {
    throw readOnly("rename", source);
  }

  @Override
  public boolean delete(Path path, boolean recursive) {
    throw readOnly("delete", path);
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) {
    throw readOnly("create directory", path);
  }

  @Override
  public void setWorkingDirectory(Path directory) {
    workingDirectory = directory;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDirectory;
  }

  private BlobClient blob(Path path) {
    return container.getBlobClient(name(path));
  }

  /** The blob name of {@code path}: its URI path without the leading slash. */
  private String name(Path path) {
    String name = makeQualified(path).toUri().getPath();
    return name.startsWith(DELIMITER) ? name.substring(1) : name;
  }

  private static String directoryPrefix(String name) {
    return name.isEmpty() || name.endsWith(DELIMITER) ? name : name + DELIMITER;
  }

  private FileStatus file(Path path, long length, long modificationTime) {
    return new FileStatus(length, false, 1, length, modificationTime, makeQualified(path));
  }

  private FileStatus directory(Path path) {
    return new FileStatus(0, true, 1, 0, 0, makeQualified(path));
  }

  private static IOException notFoundOr(Path path, BlobStorageException e) {
    return e.getStatusCode() == 404 ? new FileNotFoundException(path + " not found on Azurite")
        : new IOException("reading " + path + " from Azurite: " + e.getMessage(), e);
  }

  private static UnsupportedOperationException readOnly(String operation, Path path) {
    return new UnsupportedOperationException("the tests' Azurite file system only reads; cannot " + operation + " " + path);
  }

  /** A seekable stream over a blob's bytes. */
  private static final class BytesInput extends FSInputStream {
    private final byte[] bytes;
    private int position;

    BytesInput(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public void seek(long target) throws IOException {
      if (target < 0 || target > bytes.length) {
        throw new EOFException("seek to " + target + " in a blob of " + bytes.length + " bytes");
      }
      position = (int) target;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public boolean seekToNewSource(long target) {
      return false;
    }

    @Override
    public int read() {
      return position < bytes.length ? bytes[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      if (position >= bytes.length) {
        return -1;
      }
      int count = Math.min(length, bytes.length - position);
      System.arraycopy(bytes, position, buffer, offset, count);
      position += count;
      return count;
    }

    @Override
    public int available() {
      return bytes.length - position;
    }
  }
}
