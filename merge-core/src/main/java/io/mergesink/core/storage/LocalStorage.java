package io.mergesink.core.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;

/**
 * {@link Storage} for local and POSIX (NFS, mounted) file systems over {@code java.nio}: the default
 * for tables whose root is a local path or {@code file:} URI.
 *
 * <p>Preferred over Hadoop's local file system, which starts a {@code chmod} process for every
 * file it creates when the native Hadoop library is absent, writes {@code .crc} side files, and
 * stats every entry of a directory it lists, so opening a table would grow with its log history.
 *
 * <p>Put-if-absent: a commit is written to a unique temporary file and published with a hard
 * link, which the operating system refuses atomically when the target exists
 * ({@link HardLinkPublish}).
 */
public final class LocalStorage implements Storage {
  private static final String FILE_SCHEME = "file:";

  private final RequestCounter requests = new RequestCounter();

  @Override
  public boolean writeIfAbsent(String path, byte[] content) throws IOException {
    requests.count(RequestKind.CONDITIONAL_PUT);
    return HardLinkPublish.writeIfAbsent(local(path), content);
  }

  @Override
  public PendingFile createPending(String path) throws IOException {
    requests.count(RequestKind.CONDITIONAL_PUT);
    return HardLinkPublish.pending(local(path));
  }

  @Override
  public OutputStream create(String path) throws IOException {
    requests.count(RequestKind.PUT);
    Path target = local(path);
    Files.createDirectories(target.getParent());
    return Files.newOutputStream(target);
  }

  @Override
  public InputStream open(String path) throws IOException {
    requests.count(RequestKind.GET);
    try {
      return Files.newInputStream(local(path));
    } catch (NoSuchFileException e) {
      throw notFound(path, e);
    }
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    requests.count(RequestKind.GET);
    try {
      return Files.readAllBytes(local(path));
    } catch (NoSuchFileException e) {
      throw notFound(path, e);
    }
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    requests.count(RequestKind.RANGED_GET);
    byte[] bytes = new byte[length];
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    try (SeekableByteChannel channel = Files.newByteChannel(local(path), StandardOpenOption.READ)) {
      channel.position(offset);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer) < 0) {
          throw new IOException("file " + path + " ends before byte " + (offset + length) + " (read " + buffer.position() + " of "
              + length + " bytes at offset " + offset + ")");
        }
      }
    }
    return bytes;
  }

  @Override
  public List<FileInfo> listFrom(String directory, String fromName) throws IOException {
    requests.count(RequestKind.LIST);
    List<FileInfo> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(local(directory))) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.compareTo(fromName) >= 0) {
          BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class);
          if (attributes.isRegularFile()) {
            files.add(new FileInfo(entry.toString(), name, attributes.size(), attributes.lastModifiedTime().toMillis()));
          }
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  /** True: {@link #listFrom} reads the whole directory (readdir has no start name), {@link #exists} is one stat. */
  @Override
  public boolean prefersLookupsToListing() {
    return true;
  }

  @Override
  public List<String> listDirectories(String directory) throws IOException {
    requests.count(RequestKind.LIST);
    List<String> directories = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(local(directory), Files::isDirectory)) {
      for (Path entry : entries) {
        directories.add(entry.toString());
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    directories.sort(Comparator.naturalOrder());
    return directories;
  }

  @Override
  public List<FileInfo> listRecursive(String directory) throws IOException {
    requests.count(RequestKind.LIST);
    Path root = local(directory);
    List<FileInfo> files = new ArrayList<>();
    try (java.util.stream.Stream<Path> entries = Files.walk(root)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class);
        if (attributes.isRegularFile()) {
          String name = root.relativize(entry).toString().replace(java.io.File.separatorChar, '/');
          files.add(new FileInfo(entry.toString(), name, attributes.size(), attributes.lastModifiedTime().toMillis()));
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public boolean exists(String path) {
    requests.count(RequestKind.HEAD);
    return Files.exists(local(path));
  }

  @Override
  public boolean delete(String path) throws IOException {
    requests.count(RequestKind.DELETE);
    return Files.deleteIfExists(local(path));
  }

  @Override
  public void mkdirs(String directory) throws IOException {
    Files.createDirectories(local(directory));
  }

  @Override
  public InputFile parquetInput(String path) {
    requests.count(RequestKind.RANGED_GET);
    return new LocalInputFile(local(path));
  }

  @Override
  public OutputFile parquetOutput(String path) throws IOException {
    requests.count(RequestKind.PUT);
    Path target = local(path);
    Files.createDirectories(target.getParent());
    return new LocalOutputFile(target);
  }

  /** One per call of each method (a Parquet input counts as one ranged read, however it is read). */
  @Override
  public RequestCounts requests() {
    return requests.read();
  }

  @Override
  public RequestCounts requestsOfThisThread() {
    return requests.readThisThread();
  }

  /** merge-core, like Hadoop, expects {@link FileNotFoundException} for a missing file. */
  private static FileNotFoundException notFound(String path, NoSuchFileException cause) {
    FileNotFoundException notFound = new FileNotFoundException("no file " + path);
    notFound.initCause(cause);
    return notFound;
  }

  private static Path local(String path) {
    return path.startsWith(FILE_SCHEME) ? Path.of(URI.create(path)) : Path.of(path);
  }
}
