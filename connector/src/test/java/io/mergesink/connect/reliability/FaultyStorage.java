package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.FaultPlan.Step;
import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StreamOutputFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * A real storage (S3 on the test server) under a scheme of its own ({@code faulty-s3://bucket/...}
 * for {@code s3://bucket/...}), failing where {@link FaultPlan} says: at the put of a data file,
 * deletion vector or {@code _last_checkpoint} ({@link #create}), the conditional put of a commit
 * ({@link #writeIfAbsent}), the upload and publish of a checkpoint ({@link #createPending}), a
 * listing and a read.
 *
 * <p>What a fault leaves behind is what S3 leaves: an upload that fails or "crashes" part-way is
 * never completed, so no object appears (the real stream is abandoned unfinished, as a killed
 * process abandons it); a commit that fails before its put leaves nothing, one that fails after it
 * is on S3 and the writer sees an error. The paths the engine sees keep the test scheme: paths in
 * are mapped to the real scheme, listed paths back.
 */
final class FaultyStorage implements Storage {
  private final Storage real;
  private final String faultyPrefix;
  private final String realPrefix;

  /** @param faultyScheme the scheme the engine uses, {@code realScheme} the one {@code real} serves */
  FaultyStorage(Storage real, String faultyScheme, String realScheme) {
    this.real = real;
    this.faultyPrefix = faultyScheme + "://";
    this.realPrefix = realScheme + "://";
  }

  /** Put-if-absent in one request: a fault while "writing" means the request never completed, nothing is there. */
  @Override
  public boolean writeIfAbsent(String path, byte[] content) throws IOException {
    String key = key(path);
    FaultPlan.at(Step.CREATE, key);
    FaultPlan.at(Step.WRITE, key);
    boolean created = real.writeIfAbsent(toReal(path), content);
    if (created) {
      FaultPlan.at(Step.AFTER_CLOSE, key);
    }
    return created;
  }

  @Override
  public OutputStream create(String path) throws IOException {
    String key = key(path);
    FaultPlan.at(Step.CREATE, key);
    return new FaultyUpload(real.create(toReal(path)), key, Completion.BY_CLOSE);
  }

  @Override
  public PendingFile createPending(String path) throws IOException {
    String key = key(path);
    FaultPlan.at(Step.CREATE, key);
    PendingFile pending = real.createPending(toReal(path));
    FaultyUpload upload = new FaultyUpload(pending.stream(), key, Completion.BY_PUBLISH);
    return new PendingFile() {
      @Override
      public OutputStream stream() {
        return upload;
      }

      @Override
      public boolean publish() throws IOException {
        upload.beforeCompletion();
        boolean published = pending.publish();
        if (published) {
          FaultPlan.at(Step.AFTER_CLOSE, key);
        }
        return published;
      }

      @Override
      public void close() throws IOException {
        FaultPlan.checkAlive("discard", key);
        pending.close();
      }
    };
  }

  @Override
  public InputStream open(String path) throws IOException {
    FaultPlan.at(Step.READ, key(path));
    return real.open(toReal(path));
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    FaultPlan.at(Step.READ, key(path));
    return real.readAll(toReal(path));
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    FaultPlan.at(Step.READ, key(path));
    return real.readRange(toReal(path), offset, length);
  }

  @Override
  public List<FileInfo> listFrom(String directory, String fromName) throws IOException {
    FaultPlan.at(Step.LIST, key(directory));
    return real.listFrom(toReal(directory), fromName).stream().map(this::fromReal).toList();
  }

  @Override
  public List<String> listDirectories(String directory) throws IOException {
    FaultPlan.at(Step.LIST, key(directory));
    return real.listDirectories(toReal(directory)).stream().map(this::fromReal).toList();
  }

  @Override
  public List<FileInfo> listRecursive(String directory) throws IOException {
    FaultPlan.at(Step.LIST, key(directory));
    return real.listRecursive(toReal(directory)).stream().map(this::fromReal).toList();
  }

  @Override
  public boolean exists(String path) throws IOException {
    FaultPlan.checkAlive("exists", path);
    return real.exists(toReal(path));
  }

  @Override
  public boolean delete(String path) throws IOException {
    FaultPlan.checkAlive("delete", path);
    return real.delete(toReal(path));
  }

  @Override
  public void mkdirs(String directory) throws IOException {
    FaultPlan.checkAlive("mkdirs", directory);
    real.mkdirs(toReal(directory));
  }

  /** Parquet reads (footers, column chunks) go through {@link #readRange}-like ranged GETs of the real file. */
  @Override
  public InputFile parquetInput(String path) throws IOException {
    FaultPlan.at(Step.READ, key(path));
    return real.parquetInput(toReal(path));
  }

  @Override
  public OutputFile parquetOutput(String path) {
    return new StreamOutputFile(path, () -> create(path));
  }

  @Override
  public RequestCounts requests() {
    return real.requests();
  }

  @Override
  public void close() {
    real.close();
  }

  /** The path as faults match it: without a scheme, so one pattern serves every storage. */
  private String key(String path) {
    return path.startsWith(faultyPrefix) ? path.substring(faultyPrefix.length() - 1) : path;
  }

  private String toReal(String path) {
    if (!path.startsWith(faultyPrefix)) {
      throw new IllegalArgumentException("expected a path starting with " + faultyPrefix + ", got " + path);
    }
    return realPrefix + path.substring(faultyPrefix.length());
  }

  private String fromReal(String path) {
    return path.startsWith(realPrefix) ? faultyPrefix + path.substring(realPrefix.length()) : path;
  }

  private FileInfo fromReal(FileInfo file) {
    return new FileInfo(fromReal(file.path()), file.name(), file.size(), file.modificationTime());
  }

  /** What makes an upload visible: closing its stream, or publishing the pending file. */
  private enum Completion {
    BY_CLOSE,
    BY_PUBLISH
  }

  /**
   * An upload consulting the plan at its second write call (or at completion, for one written in
   * fewer calls) and, for a plain file, after its close. Once a fault fired, closing it does not
   * complete the real upload: S3 gets no object, as from an aborted or killed upload.
   */
  private static final class FaultyUpload extends OutputStream {
    private final OutputStream out;
    private final String key;
    private final Completion completion;
    private int writeCalls;
    private boolean failed;
    private boolean closed;

    FaultyUpload(OutputStream out, String key, Completion completion) {
      this.out = out;
      this.key = key;
      this.completion = completion;
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
      FaultPlan.checkAlive("flush", key);
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      FaultPlan.checkAlive("close", key);
      if (completion == Completion.BY_PUBLISH) {
        out.close();
        return;
      }
      beforeCompletion();
      out.close();
      FaultPlan.at(Step.AFTER_CLOSE, key);
    }

    /** The fault of a file written in fewer than two calls fires here; a failed upload is never completed. */
    void beforeCompletion() throws IOException {
      if (failed) {
        throw new IOException("upload of " + key + " failed earlier (injected) and was not completed");
      }
      if (writeCalls < 2) {
        fire();
      }
    }

    private void beforeWrite() throws IOException {
      if (failed) {
        throw new IOException("upload of " + key + " failed earlier (injected)");
      }
      if (++writeCalls == 2) {
        fire();
      } else {
        FaultPlan.checkAlive("write", key);
      }
    }

    private void fire() throws IOException {
      try {
        FaultPlan.at(Step.WRITE, key);
      } catch (IOException | SimulatedCrash e) {
        failed = true;
        throw e;
      }
    }
  }
}
