package io.mergesink.ingest.format.paimon;

import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.Storages;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.SeekableInputStream;

/**
 * Paimon's file access over the sink's own {@link Storage} (docs/paimon.md, "Storage"): a Paimon
 * table on S3, Azure or another storage of the sink is reached with the storage {@link Storages} picks for the location's scheme
 * and authority, with the connector's clients, credentials and retries. The storage options are
 * handed over in Java, never as catalog options.
 *
 * <ul>
 *   <li>{@link #tryToWriteAtomic} is the storage's put-if-absent ({@link Storage#writeIfAbsent}):
 *       Paimon publishes a snapshot ({@code snapshot-N}) and a schema ({@code schema-N}) with it, and
 *       of two writers exactly one wins. No rename is needed, and none is offered: an object store has
 *       no atomic rename, and Paimon's filesystem catalog renames only tables, tags and branches;
 *   <li>{@link #newOutputStream} with {@code overwrite=false} is put-if-absent too (the file appears
 *       whole when the stream closes, or not at all), with {@code overwrite=true} a plain write;
 *   <li>a directory is a key prefix: it exists when a file is under it, or its marker (an empty
 *       object named {@code <directory>/}, as Hadoop's S3A writes one) is there, which
 *       {@link #mkdirs} writes so that an empty database exists.
 * </ul>
 *
 * <p>One instance serves a catalog and every table it loads; {@link #close()} releases the
 * storages (S3 and Azure clients).
 */
final class StorageFileIO implements FileIO {
  private static final long serialVersionUID = 1L;
  private static final String SEPARATOR = "/";
  private static final byte[] NO_BYTES = new byte[0];
  /** The directories of a Paimon table that hold files only (a bucket's is {@code bucket-<n>}). */
  private static final Set<String> FILE_DIRECTORIES = Set.of("snapshot", "schema", "manifest", "index", "changelog", "statistics",
      "tag", "consumer");
  private static final String BUCKET_DIRECTORY_PREFIX = "bucket-";

  private final transient StorageOptions options;
  private final transient Map<String, Storage> storages = new ConcurrentHashMap<>();

  StorageFileIO(StorageOptions options) {
    this.options = options;
  }

  /**
   * Whether Paimon tables at {@code warehouse} are written through this file IO: those on object
   * stores and other storages the sink has (a storage provider's scheme), not those on local disk
   * and HDFS, which Paimon's own file IO reaches with atomic renames.
   */
  static boolean serves(String warehouse) {
    return !Storages.onHadoopFileSystem(warehouse) && Storages.unsupportedReason(warehouse).isEmpty();
  }

  @Override
  public boolean isObjectStore() {
    return true;
  }

  /** Nothing to configure: the storage options came with the constructor. */
  @Override
  public void configure(CatalogContext context) {}

  @Override
  public SeekableInputStream newInputStream(Path path) throws IOException {
    String location = path.toString();
    return new StorageInputStream(storage(location).parquetInput(location).newStream());
  }

  /**
   * A new file. Without {@code overwrite} it is put-if-absent: streamed to a pending upload and
   * published when the stream closes, failing with {@link FileAlreadyExistsException} when the file
   * exists by then.
   */
  @Override
  public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
    String location = path.toString();
    Storage storage = storage(location);
    if (overwrite) {
      return new CountingStream(storage.create(location));
    }
    PendingFile pending = storage.createPending(location);
    return new CountingStream(pending.stream()) {
      @Override
      void complete() throws IOException {
        try (pending) {
          super.complete();
          if (!failed() && !pending.publish()) {
            throw new FileAlreadyExistsException(location, null, "another writer created it first");
          }
        }
      }
    };
  }

  /** Publishes {@code content} at {@code path} unless a file is there: false when one is. */
  @Override
  public boolean tryToWriteAtomic(Path path, String content) throws IOException {
    String location = path.toString();
    return storage(location).writeIfAbsent(location, content.getBytes(StandardCharsets.UTF_8));
  }

  /** The file's length, from one lookup (a HEAD on S3) rather than the listing {@link #getFileStatus} makes. */
  @Override
  public long getFileSize(Path path) throws IOException {
    String location = path.toString();
    return storage(location).parquetInput(location).getLength();
  }

  /**
   * A file's status from a listing of its directory from its name on (the modification time is
   * known only from a listing), or a directory's.
   *
   * @throws FileNotFoundException neither a file nor a directory is at {@code path}
   */
  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    String location = path.toString();
    Storage storage = storage(location);
    Path parent = path.getParent();
    if (parent != null) {
      for (Storage.FileInfo file : storage.listFrom(parent.toString(), path.getName())) {
        if (file.name().equals(path.getName())) {
          return new Status(path, file.size(), false, file.modificationTime());
        }
        break;
      }
    }
    if (isDirectory(storage, location)) {
      return new Status(path, 0, true, 0);
    }
    throw new FileNotFoundException(location + " does not exist");
  }

  /** The files and directories directly in {@code path}; empty when it does not exist. */
  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    String location = path.toString();
    Storage storage = storage(location);
    List<FileStatus> statuses = new ArrayList<>();
    for (Storage.FileInfo file : storage.listFrom(location, "")) {
      statuses.add(new Status(new Path(file.path()), file.size(), false, file.modificationTime()));
    }
    for (String directory : storage.listDirectories(location)) {
      statuses.add(new Status(new Path(directory), 0, true, 0));
    }
    return statuses.toArray(new FileStatus[0]);
  }

  @Override
  public FileStatus[] listDirectories(Path path) throws IOException {
    List<FileStatus> statuses = new ArrayList<>();
    for (String directory : storage(path.toString()).listDirectories(path.toString())) {
      statuses.add(new Status(new Path(directory), 0, true, 0));
    }
    return statuses.toArray(new FileStatus[0]);
  }

  /** Every file under {@code path} in one recursive listing, rather than a listing per directory. */
  @Override
  public FileStatus[] listFiles(Path path, boolean recursive) throws IOException {
    if (!recursive) {
      List<FileStatus> files = new ArrayList<>();
      for (Storage.FileInfo file : storage(path.toString()).listFrom(path.toString(), "")) {
        files.add(new Status(new Path(file.path()), file.size(), false, file.modificationTime()));
      }
      return files.toArray(new FileStatus[0]);
    }
    String location = trimmed(path.toString());
    List<FileStatus> files = new ArrayList<>();
    for (Storage.FileInfo file : storage(location).listRecursive(location)) {
      files.add(new Status(new Path(location + SEPARATOR + file.name()), file.size(), false, file.modificationTime()));
    }
    return files.toArray(new FileStatus[0]);
  }

  /**
   * A file at {@code path}, or a directory: its marker, or a file or directory under it. In the
   * directories of a table that hold files only, a missing path is a missing file, known without
   * listing: Paimon looks up the next snapshot that way before and after each commit.
   */
  @Override
  public boolean exists(Path path) throws IOException {
    String location = path.toString();
    Storage storage = storage(location);
    if (storage.exists(location)) {
      return true;
    }
    Path parent = path.getParent();
    return !(parent != null && holdsFilesOnly(parent.getName())) && isDirectory(storage, location);
  }

  /** Reads a whole (small) file in one request: snapshots, schemas, hints. */
  @Override
  public String readFileUtf8(Path path) throws IOException {
    String location = path.toString();
    return new String(storage(location).readAll(location), StandardCharsets.UTF_8);
  }

  /** A file, or with {@code recursive} a directory with every file under it and its marker. */
  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    String location = path.toString();
    Storage storage = storage(location);
    if (storage.exists(location)) {
      return storage.delete(location);
    }
    if (!isDirectory(storage, location)) {
      return false;
    }
    String directory = trimmed(location);
    List<Storage.FileInfo> files = storage.listRecursive(directory);
    if (!files.isEmpty() && !recursive) {
      throw new IOException("directory " + location + " is not empty: it is deleted only recursively");
    }
    for (Storage.FileInfo file : files) {
      storage.delete(directory + SEPARATOR + file.name());
    }
    storage.delete(directory + SEPARATOR);
    return true;
  }

  /** Creates the directory where the storage has directories, else writes its marker unless the directory exists. */
  @Override
  public boolean mkdirs(Path path) throws IOException {
    String location = path.toString();
    Storage storage = storage(location);
    storage.mkdirs(location);
    if (!isDirectory(storage, location)) {
      storage.writeIfAbsent(trimmed(location) + SEPARATOR, NO_BYTES);
    }
    return true;
  }

  /** @throws UnsupportedOperationException always: an object store has no atomic rename (see the class comment) */
  @Override
  public boolean rename(Path src, Path dst) {
    throw new UnsupportedOperationException("cannot rename " + src + " to " + dst + ": Paimon tables on object stores are written"
        + " without renames (docs/paimon.md, \"Storage\")");
  }

  /** The requests made to the storage of {@code location} (its bucket or container), by kind. */
  RequestCounts requests(String location) {
    return storage(location).requests();
  }

  @Override
  public void close() {
    storages.values().forEach(Storage::close);
    storages.clear();
  }

  /** Whether a directory of that name in a Paimon table holds files and no directories. */
  private static boolean holdsFilesOnly(String name) {
    return FILE_DIRECTORIES.contains(name) || name.startsWith(BUCKET_DIRECTORY_PREFIX);
  }

  private boolean isDirectory(Storage storage, String location) throws IOException {
    String directory = trimmed(location);
    return storage.exists(directory + SEPARATOR) || !storage.listFrom(directory, "").isEmpty()
        || !storage.listDirectories(directory).isEmpty();
  }

  /** The storage of {@code location}'s scheme and authority (an S3 bucket, an Azure container). */
  private Storage storage(String location) {
    return storages.computeIfAbsent(root(location), root -> Storages.forRoot(root, options));
  }

  private static String root(String location) {
    URI uri = URI.create(location.replace(" ", "%20"));
    return uri.getScheme() + "://" + (uri.getRawAuthority() == null ? "" : uri.getRawAuthority()) + SEPARATOR;
  }

  private static String trimmed(String location) {
    return location.endsWith(SEPARATOR) ? location.substring(0, location.length() - 1) : location;
  }

  /** A file or directory as Paimon lists it; a directory has no length and no modification time here. */
  private record Status(Path getPath, long getLen, boolean isDir, long getModificationTime) implements FileStatus {}

  /** A Parquet stream of the storage (reads through a window, seeks by range) as Paimon's. */
  private static final class StorageInputStream extends SeekableInputStream {
    private final org.apache.parquet.io.SeekableInputStream in;

    StorageInputStream(org.apache.parquet.io.SeekableInputStream in) {
      this.in = in;
    }

    @Override
    public void seek(long desired) throws IOException {
      in.seek(desired);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] bytes, int off, int len) throws IOException {
      return in.read(bytes, off, len);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /** Counts the bytes written, which is the position Paimon's writers ask for, and whether a write failed. */
  private static class CountingStream extends PositionOutputStream {
    private final OutputStream out;
    private long position;
    private boolean failed;
    private boolean closed;

    CountingStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
      position++;
    }

    @Override
    public void write(byte[] b) throws IOException {
      write(b, 0, b.length);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
      position += len;
    }

    boolean failed() {
      return failed;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        complete();
      }
    }

    /** Completes the file: closes the stream, and publishes it where that is a step of its own. */
    void complete() throws IOException {
      out.close();
    }
  }
}
