package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.FaultPlan.Step;
import io.mergesink.core.storage.LocalStorage;
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
 * A real storage under a scheme of its own, failing where {@link FaultPlan} says: the local disk
 * ({@code faulty:///dir/...} for {@code /dir/...}, over {@link LocalStorage}), S3 on the test
 * server ({@code faulty-s3://bucket/...} for {@code s3://bucket/...}) or Azure on the test Azurite
 * ({@code faulty-azure://container@account.blob.core.windows.net/...} for {@code wasbs://...}). Faults fire at the put of a
 * data file, deletion vector or {@code _last_checkpoint} ({@link #create}), the put-if-absent of a
 * commit ({@link #writeIfAbsent}), the upload and publish of a checkpoint ({@link #createPending}),
 * a listing and a read.
 *
 * <p>What a fault leaves behind is what the real storage leaves. A commit or checkpoint is
 * published put-if-absent in one step (a hard link on local disk, a conditional put in an object store): one
 * that fails before that step leaves nothing, one that fails after it is there and the writer sees
 * an error. A plain file that fails or "crashes" part-way is never completed: on S3 no object
 * appears on S3 or Azure (the upload is abandoned unfinished, as a killed process abandons it), on local disk the
 * bytes written so far stay. The paths the engine sees keep the test scheme: paths in are mapped to
 * the real ones, listed paths back.
 */
final class FaultyStorage implements Storage {
  /** The scheme of local table roots with faults: {@code faulty:///dir} is the directory {@code /dir}. */
  static final String FAULTY_LOCAL = "faulty";
  /** The scheme of S3 table roots with faults: {@code faulty-s3://bucket/...} is {@code s3://bucket/...}. */
  static final String FAULTY_S3 = "faulty-s3";
  /** The scheme of Azure table roots with faults: {@code faulty-azure://container@host/...} is {@code wasbs://container@host/...}. */
  static final String FAULTY_AZURE = "faulty-azure";

  private final Storage real;
  /** {@code faulty:}, {@code faulty-s3:} or {@code faulty-azure:}. */
  private final String faultyScheme;
  /** Where the test scheme's paths start: {@code faulty:///}, {@code faulty-s3://} or {@code faulty-azure://}. */
  private final String faultyRoot;
  /** Where the real storage's paths start: {@code /}, {@code s3://} or {@code wasbs://}. */
  private final String realRoot;
  private final Abandoned abandoned;

  private FaultyStorage(Storage real, String faultyRoot, String realRoot, Abandoned abandoned) {
    this.real = real;
    this.faultyScheme = faultyRoot.substring(0, faultyRoot.indexOf(':') + 1);
    this.faultyRoot = faultyRoot;
    this.realRoot = realRoot;
    this.abandoned = abandoned;
  }

  /** The local disk under {@code faulty:///}: the storage local table roots get. */
  static FaultyStorage onLocalDisk() {
    return new FaultyStorage(new LocalStorage(), FAULTY_LOCAL + ":///", "/", Abandoned.CLOSED);
  }

  /** {@code s3}, an S3 storage, under {@code faulty-s3://}. */
  static FaultyStorage onS3(Storage s3) {
    return new FaultyStorage(s3, FAULTY_S3 + "://", "s3://", Abandoned.LEFT_OPEN);
  }

  /** {@code azure}, an Azure storage of {@code wasbs://} roots, under {@code faulty-azure://}. */
  static FaultyStorage onAzure(Storage azure) {
    return new FaultyStorage(azure, FAULTY_AZURE + "://", "wasbs://", Abandoned.LEFT_OPEN);
  }

  /** Put-if-absent in one step (a conditional put, a hard link): a fault while "writing" means it never happened, nothing is there. */
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
    return new FaultyUpload(real.create(toReal(path)), key, Completion.BY_CLOSE, abandoned);
  }

  @Override
  public PendingFile createPending(String path) throws IOException {
    String key = key(path);
    FaultPlan.at(Step.CREATE, key);
    PendingFile pending = real.createPending(toReal(path));
    FaultyUpload upload = new FaultyUpload(pending.stream(), key, Completion.BY_PUBLISH, abandoned);
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
  public RequestCounts requestsOfThisThread() {
    return real.requestsOfThisThread();
  }

  @Override
  public void close() {
    real.close();
  }

  /**
   * The path as faults match it: without a scheme ({@code /dir/t/_delta_log/...},
   * {@code /bucket/t/_delta_log/...}), so one pattern serves every storage.
   */
  private String key(String path) {
    return path.startsWith(faultyScheme) ? "/" + afterScheme(path) : path;
  }

  private String toReal(String path) {
    if (!path.startsWith(faultyScheme)) {
      throw new IllegalArgumentException("expected a path starting with " + faultyRoot + ", got " + path);
    }
    return realRoot + afterScheme(path);
  }

  /** {@code dir/f} of {@code faulty:///dir/f} (or {@code faulty:/dir/f}), {@code bucket/k} of {@code faulty-s3://bucket/k}. */
  private String afterScheme(String path) {
    String rest = path.substring(faultyScheme.length());
    return rest.startsWith("//") ? rest.substring(2).replaceFirst("^/", "") : rest.substring(1);
  }

  /** A listed path under the test scheme: {@code s3://b/k} as {@code faulty-s3://b/k}, a local {@code /dir/f} as {@code faulty:///dir/f}. */
  private String fromReal(String path) {
    return path.startsWith(realRoot) ? faultyRoot + path.substring(realRoot.length()) : path;
  }

  private FileInfo fromReal(FileInfo file) {
    return new FileInfo(fromReal(file.path()), file.name(), file.size(), file.modificationTime());
  }

  /**
   * What becomes of the real stream of an upload a fault failed. Closing an S3 upload's stream
   * completes the object, so it is left open; a local file's stream is closed, which keeps the bytes
   * written so far (as a failed or killed writer leaves them) and releases the file.
   */
  private enum Abandoned {
    LEFT_OPEN,
    CLOSED
  }

  /** What makes an upload visible: closing its stream, or publishing the pending file. */
  private enum Completion {
    BY_CLOSE,
    BY_PUBLISH
  }

  /**
   * An upload consulting the plan at its second write call (or at completion, for one written in
   * fewer calls) and, for a plain file, after its close. Once a fault fired, closing it does not
   * complete the real upload: S3 gets no object, as from an aborted or killed upload; a local file
   * keeps what was written.
   */
  private static final class FaultyUpload extends OutputStream {
    private final OutputStream out;
    private final String key;
    private final Completion completion;
    private final Abandoned abandoned;
    private int writeCalls;
    private boolean failed;
    private boolean closed;

    FaultyUpload(OutputStream out, String key, Completion completion, Abandoned abandoned) {
      this.out = out;
      this.key = key;
      this.completion = completion;
      this.abandoned = abandoned;
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
      try {
        beforeCompletion();
      } catch (IOException e) {
        if (abandoned == Abandoned.CLOSED) {
          out.close();
        }
        throw e;
      }
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
