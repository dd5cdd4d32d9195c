package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.Storages;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Iceberg's file access over the sink's own {@link Storage} (docs/iceberg.md, "Storage"): the
 * storage of each location is the one {@link Storages} picks for its scheme and authority, built
 * from the connector's storage options, so an Iceberg table on S3 or Azure is reached with the same
 * clients, credentials, retries and request counts as a Delta table there ({@link #requests()}). The options are handed
 * over in Java, never as catalog properties: no secret is in {@link #properties()}.
 *
 * <ul>
 *   <li>{@link OutputFile#create()} is put-if-absent: the file is streamed to a pending upload and
 *       published whole when the stream closes, or not at all ({@link AlreadyExistsException} when it
 *       exists); {@link OutputFile#createOrOverwrite()} streams to the path directly;
 *   <li>reads are ranged: Parquet footers, column chunks and deletion vectors fetch their bytes only
 *       ({@link RangeReadable}), a stream reads through a window;
 *   <li>{@link #listPrefix} lists the files under a location taken as a directory (how orphan files
 *       are found), {@link #deletePrefix} deletes them.
 * </ul>
 *
 * <p>One instance serves a catalog and every table it loads; {@link #close()} releases the
 * storages (S3 and Azure clients).
 */
public final class StorageFileIO implements SupportsPrefixOperations {
  private static final long serialVersionUID = 1L;

  private final transient StorageOptions options;
  private final transient Map<String, Storage> storages = new ConcurrentHashMap<>();

  public StorageFileIO(StorageOptions options) {
    this.options = options;
  }

  @Override
  public InputFile newInputFile(String location) {
    return new StorageInputFile(location, -1);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return new StorageInputFile(location, length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new StorageOutputFile(location);
  }

  @Override
  public void deleteFile(String location) {
    try {
      storage(location).delete(location);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + location, e);
    }
  }

  /** The files under {@code prefix}, a directory (a table's location, its {@code data/} or {@code metadata/}). */
  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    String directory = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    try {
      List<FileInfo> files = new ArrayList<>();
      for (Storage.FileInfo file : storage(directory).listRecursive(directory)) {
        files.add(new FileInfo(file.path(), file.size(), file.modificationTime()));
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + prefix, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    listPrefix(prefix).forEach(file -> deleteFile(file.location()));
  }

  /**
   * The requests of the storages this file IO reached so far, by kind, all locations together; none
   * once it is closed.
   */
  public RequestCounts requests() {
    RequestCounts sum = RequestCounts.ZERO;
    for (Storage storage : storages.values()) {
      sum = sum.plus(storage.requests());
    }
    return sum;
  }

  /** No properties: the storage options, credentials among them, never leave the connector's configuration. */
  @Override
  public Map<String, String> properties() {
    return Map.of();
  }

  @Override
  public void close() {
    storages.values().forEach(Storage::close);
    storages.clear();
  }

  /** The storage of {@code location}'s scheme and authority (an S3 bucket, an Azure container, a local disk). */
  private Storage storage(String location) {
    return storages.computeIfAbsent(root(location), root -> Storages.forRoot(root, options));
  }

  private static String root(String location) {
    URI uri = URI.create(location.replace(" ", "%20"));
    if (uri.getScheme() == null) {
      return "/";
    }
    return uri.getScheme() + "://" + (uri.getRawAuthority() == null ? "" : uri.getRawAuthority()) + "/";
  }

  private final class StorageInputFile implements InputFile {
    private final String location;
    private long length;

    StorageInputFile(String location, long length) {
      this.location = location;
      this.length = length;
    }

    @Override
    public long getLength() {
      if (length < 0) {
        try {
          length = storage(location).parquetInput(location).getLength();
        } catch (IOException e) {
          throw notFoundOrUnchecked(e);
        }
      }
      return length;
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new StorageInputStream(location, storage(location).parquetInput(location).newStream(), this::getLength);
      } catch (IOException e) {
        throw notFoundOrUnchecked(e);
      }
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public boolean exists() {
      try {
        return storage(location).exists(location);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot look up " + location, e);
      }
    }

    private RuntimeException notFoundOrUnchecked(IOException e) {
      if (e instanceof FileNotFoundException || e instanceof NoSuchFileException) {
        return new NotFoundException(e, "file %s does not exist", location);
      }
      return new UncheckedIOException("cannot read " + location, e);
    }
  }

  /**
   * A Parquet stream of the storage as Iceberg's, with ranged reads straight from the storage; the
   * file's {@code length} is looked up on first use.
   */
  private final class StorageInputStream extends SeekableInputStream implements RangeReadable {
    private final String location;
    private final org.apache.parquet.io.SeekableInputStream in;
    private final LongSupplier length;

    StorageInputStream(String location, org.apache.parquet.io.SeekableInputStream in, LongSupplier length) {
      this.location = location;
      this.in = in;
      this.length = length;
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
      in.seek(newPos);
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
    public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
      byte[] range = storage(location).readRange(location, position, len);
      System.arraycopy(range, 0, buffer, offset, len);
    }

    @Override
    public int readTail(byte[] buffer, int offset, int len) throws IOException {
      long fileLength = length.getAsLong();
      int n = (int) Math.min(len, fileLength);
      readFully(fileLength - n, buffer, offset, n);
      return n;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  private final class StorageOutputFile implements OutputFile {
    private final String location;

    StorageOutputFile(String location) {
      this.location = location;
    }

    /** Put-if-absent: the file appears whole when the stream closes, or not at all. */
    @Override
    public PositionOutputStream create() {
      try {
        PendingFile pending = storage(location).createPending(location);
        return new CountingStream(pending.stream()) {
          @Override
          void complete() throws IOException {
            try (pending) {
              super.complete();
              if (failed()) {
                return; // a write failed: the file never appears, the pending upload is discarded
              }
              if (!pending.publish()) {
                throw new AlreadyExistsException("file %s exists: another writer created it first", location);
              }
            }
          }
        };
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create " + location, e);
      }
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      try {
        return new CountingStream(storage(location).create(location));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create " + location, e);
      }
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public InputFile toInputFile() {
      return newInputFile(location);
    }
  }

  /** Counts the bytes written, which is the position Iceberg's writers ask for, and whether a write failed. */
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
