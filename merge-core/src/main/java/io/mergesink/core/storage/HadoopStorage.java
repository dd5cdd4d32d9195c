package io.mergesink.core.storage;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * {@link Storage} over Hadoop's {@link FileSystem}, for {@code hdfs://} table roots (and, for tests
 * and tools, Hadoop's local file system).
 *
 * <p>Put-if-absent: the whole commit is written under a temporary name beside the target and
 * published by {@code rename}, which HDFS refuses atomically when the target exists (the NameNode
 * checks and renames in one step; Delta's HDFS log store relies on the same), so of several writers
 * exactly one wins and no reader sees a partial commit. There is no existence check before the
 * rename: it would only add a request and a window. On Hadoop's local file system, whose rename
 * replaces the target, the temporary file is hard linked instead ({@link HardLinkPublish}).
 * {@link Storages} never gives this storage a scheme whose rename is not known to refuse.
 */
public final class HadoopStorage implements Storage {
  private final Configuration conf;
  private final RequestCounter requests = new RequestCounter();

  public HadoopStorage(Configuration conf) {
    this.conf = conf;
  }

  /** Storage for local paths and any scheme with Hadoop's defaults. */
  public static HadoopStorage withDefaults() {
    return new HadoopStorage(new Configuration());
  }

  @Override
  public boolean writeIfAbsent(String path, byte[] content) throws IOException {
    try (PendingFile file = createPending(path)) {
      file.stream().write(content);
      return file.publish();
    }
  }

  @Override
  public PendingFile createPending(String path) throws IOException {
    requests.count(RequestKind.CONDITIONAL_PUT);
    Path target = new Path(path);
    FileSystem fs = fileSystem(target);
    if (isLocal(fs)) {
      return HardLinkPublish.pending(Paths.get(fs.makeQualified(target).toUri()));
    }
    return new RenamePublish(fs, target);
  }

  /** A complete temporary file beside the target, renamed onto it; HDFS refuses the rename if the target exists. */
  private static final class RenamePublish extends TemporaryFilePublish {
    private final FileSystem fs;
    private final Path target;
    private final Path temp;

    private RenamePublish(FileSystem fs, Path target, Path temp) throws IOException {
      super(fs.create(temp, false));
      this.fs = fs;
      this.target = target;
      this.temp = temp;
    }

    RenamePublish(FileSystem fs, Path target) throws IOException {
      this(fs, target, new Path(target.getParent(), temporaryName(target.getName())));
    }

    @Override
    boolean publishTemporary() throws IOException {
      if (fs.rename(temp, target)) {
        return true;
      }
      // HDFS's rename answers false (rather than throwing) when the target exists
      if (fs.exists(target)) {
        return false;
      }
      throw new IOException("rename of " + temp + " to " + target + " was refused, yet " + target + " does not exist");
    }

    @Override
    void deleteTemporary() throws IOException {
      fs.delete(temp, false);
    }
  }

  @Override
  public OutputStream create(String path) throws IOException {
    requests.count(RequestKind.PUT);
    Path target = new Path(path);
    return fileSystem(target).create(target, true);
  }

  @Override
  public InputStream open(String path) throws IOException {
    requests.count(RequestKind.GET);
    Path target = new Path(path);
    return fileSystem(target).open(target);
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    try (InputStream in = open(path)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    requests.count(RequestKind.RANGED_GET);
    Path target = new Path(path);
    byte[] bytes = new byte[length];
    try (FSDataInputStream in = fileSystem(target).open(target)) {
      in.readFully(offset, bytes);
    }
    return bytes;
  }

  @Override
  public List<FileInfo> listFrom(String directory, String fromName) throws IOException {
    requests.count(RequestKind.LIST);
    Path dir = new Path(directory);
    FileStatus[] statuses;
    try {
      statuses = fileSystem(dir).listStatus(dir);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    List<FileInfo> files = new ArrayList<>();
    for (FileStatus status : statuses) {
      String name = status.getPath().getName();
      if (status.isFile() && name.compareTo(fromName) >= 0) {
        files.add(new FileInfo(status.getPath().toString(), name, status.getLen(), status.getModificationTime()));
      }
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public List<String> listDirectories(String directory) throws IOException {
    requests.count(RequestKind.LIST);
    Path dir = new Path(directory);
    FileStatus[] statuses;
    try {
      statuses = fileSystem(dir).listStatus(dir);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    List<String> directories = new ArrayList<>();
    for (FileStatus status : statuses) {
      if (status.isDirectory()) {
        directories.add(status.getPath().toString());
      }
    }
    directories.sort(Comparator.naturalOrder());
    return directories;
  }

  @Override
  public List<FileInfo> listRecursive(String directory) throws IOException {
    requests.count(RequestKind.LIST);
    Path dir = new Path(directory);
    FileSystem fs = fileSystem(dir);
    String prefix = fs.makeQualified(dir).toUri().getPath();
    String base = prefix.endsWith("/") ? prefix : prefix + "/";
    List<FileInfo> files = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> statuses;
    try {
      statuses = fs.listFiles(dir, true);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    while (statuses.hasNext()) {
      LocatedFileStatus status = statuses.next();
      String path = status.getPath().toUri().getPath();
      if (!path.startsWith(base)) {
        throw new IOException("listing " + directory + " returned " + status.getPath() + ", which is not under it");
      }
      files.add(new FileInfo(status.getPath().toString(), path.substring(base.length()), status.getLen(),
          status.getModificationTime()));
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public boolean exists(String path) throws IOException {
    requests.count(RequestKind.HEAD);
    Path target = new Path(path);
    return fileSystem(target).exists(target);
  }

  @Override
  public boolean delete(String path) throws IOException {
    requests.count(RequestKind.DELETE);
    Path target = new Path(path);
    return fileSystem(target).delete(target, false);
  }

  @Override
  public void mkdirs(String directory) throws IOException {
    Path dir = new Path(directory);
    fileSystem(dir).mkdirs(dir);
  }

  @Override
  public InputFile parquetInput(String path) throws IOException {
    requests.count(RequestKind.RANGED_GET);
    return HadoopInputFile.fromPath(new Path(path), conf);
  }

  @Override
  public OutputFile parquetOutput(String path) throws IOException {
    requests.count(RequestKind.PUT);
    return HadoopOutputFile.fromPath(new Path(path), conf);
  }

  /** One per call of each method, like {@link LocalStorage}. */
  @Override
  public RequestCounts requests() {
    return requests.read();
  }

  @Override
  public RequestCounts requestsOfThisThread() {
    return requests.readThisThread();
  }

  private FileSystem fileSystem(Path path) throws IOException {
    return path.getFileSystem(conf);
  }

  private static boolean isLocal(FileSystem fs) {
    return fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem;
  }
}
