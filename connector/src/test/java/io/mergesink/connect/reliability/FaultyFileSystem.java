package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.FaultPlan.Step;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code faulty:}, failing where {@link FaultPlan} says.
 * Tables use it with {@code hadoop.fs.faulty.impl=}this class and {@code table.root=faulty:///...}.
 *
 * <p>It is a {@link FilterFileSystem}, not a {@link RawLocalFileSystem}, so {@code HadoopStorage}
 * publishes commits through {@code create(path, overwrite=false)} (interceptable) instead of a hard
 * link. That create is put-if-absent only by an existence check before creating, which is not
 * atomic: fine for the single-writer fault tests, not for racing writers (tests with two writers
 * use plain local paths).
 */
public final class FaultyFileSystem extends FilterFileSystem {
  static final String SCHEME = "faulty";
  private static final List<String> CREATED = new ArrayList<>();

  public FaultyFileSystem() {
    super(new LocalUnderScheme());
  }

  /** The hadoop options that register this file system. */
  static String implOption() {
    return "hadoop.fs." + SCHEME + ".impl";
  }

  /** Every path created through any instance since the last {@link #forgetCreated()}. */
  static synchronized List<String> created() {
    return List.copyOf(CREATED);
  }

  static synchronized void forgetCreated() {
    CREATED.clear();
  }

  private static synchronized void recordCreated(String path) {
    CREATED.add(path);
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
      long blockSize, Progressable progress) throws IOException {
    String path = f.toUri().getPath();
    String published = publishedPath(path);
    FaultPlan.at(Step.CREATE, published);
    recordCreated(path);
    FSDataOutputStream out = super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    return new FSDataOutputStream(new FaultyStream(out, published, !published.equals(path)), statistics);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    FaultPlan.at(Step.READ, f.toUri().getPath());
    return super.open(f, bufferSize);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws FileNotFoundException, IOException {
    FaultPlan.at(Step.LIST, f.toUri().getPath());
    return super.listStatus(f);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    FaultPlan.checkAlive("stat", f.toString());
    return super.getFileStatus(f);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    FaultPlan.checkAlive("delete", f.toString());
    return super.delete(f, recursive);
  }

  /**
   * Renames as HDFS does: refused (false) when {@code dst} exists, atomically among this JVM's
   * writers. Hadoop's local file system would replace the target, and a zombie task's commit would
   * silently overwrite the version its successor published.
   */
  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    FaultPlan.checkAlive("rename", src.toString());
    boolean renamed;
    synchronized (FaultyFileSystem.class) {
      renamed = !super.exists(dst) && super.rename(src, dst);
    }
    if (renamed) {
      FaultPlan.at(Step.AFTER_CLOSE, dst.toUri().getPath());
    }
    return renamed;
  }

  /**
   * The path a file being written will be visible at: HadoopStorage writes commits and checkpoints
   * to a temporary {@code .<name>.<uuid>.tmp} and renames it, so faults aimed at the commit apply
   * to its temporary file while written, and to the rename as "completely written".
   */
  static String publishedPath(String path) {
    return TEMPORARY.matcher(path).replaceFirst("/$1");
  }

  private static final java.util.regex.Pattern TEMPORARY =
      java.util.regex.Pattern.compile("/\\.([^/]+)\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.tmp$");

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    FaultPlan.checkAlive("mkdirs", f.toString());
    return super.mkdirs(f, permission);
  }

  /** Passes writes through, consulting the plan at the second write call and after close. */
  private static final class FaultyStream extends OutputStream {
    private final OutputStream out;
    private final String path;
    private final boolean publishedByRename;
    private int writeCalls;
    private boolean closed;

    /** @param publishedByRename a temporary file: "completely written" is its rename, not its close */
    FaultyStream(OutputStream out, String path, boolean publishedByRename) {
      this.out = out;
      this.path = path;
      this.publishedByRename = publishedByRename;
    }

    @Override
    public void write(int b) throws IOException {
      beforeWrite();
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      beforeWrite();
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      FaultPlan.checkAlive("flush", path);
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      if (writeCalls < 2) {
        try {
          FaultPlan.at(Step.WRITE, path);
        } catch (IOException e) {
          out.close();
          throw e;
        }
      }
      out.close();
      if (!publishedByRename) {
        FaultPlan.at(Step.AFTER_CLOSE, path);
      }
    }

    private void beforeWrite() throws IOException {
      if (++writeCalls == 2) {
        FaultPlan.at(Step.WRITE, path);
      } else {
        FaultPlan.checkAlive("write", path);
      }
    }
  }

  /** Hadoop's local file system, named {@code faulty:}. */
  private static final class LocalUnderScheme extends RawLocalFileSystem {
    private static final URI NAME = URI.create(SCHEME + ":///");

    @Override
    public URI getUri() {
      return NAME;
    }

    @Override
    public String getScheme() {
      return SCHEME;
    }
  }
}
