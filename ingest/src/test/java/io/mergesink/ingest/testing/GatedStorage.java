package io.mergesink.ingest.testing;

import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * Local storage under {@code gated://} roots (served by {@link GatedStorageProvider}) whose log
 * publishes pass a {@link Gate} first: a test fails or holds one commit of one table there, the way
 * a crash or a slow writer would. Everything else is {@link LocalStorage}'s.
 */
public final class GatedStorage implements Storage {
  public static final String SCHEME = "gated";
  private static final String PREFIX = SCHEME + "://";
  private static volatile Gate gate = Gate.OPEN;

  private final LocalStorage local = new LocalStorage();

  /** What a publish of a log file ({@code _delta_log/N.json} put-if-absent) meets before it happens. */
  @FunctionalInterface
  public interface Gate {
    Gate OPEN = (path, content) -> {};

    /** Returns to let the publish happen, blocks to hold it, throws to fail it. */
    void beforePublish(String path, byte[] content) throws IOException;
  }

  /** The root under {@code directory} that this storage serves. */
  public static String root(java.nio.file.Path directory) {
    return PREFIX + directory.toAbsolutePath();
  }

  /** Every gated storage passes its publishes through {@code value} from now on ({@link Gate#OPEN} to stop). */
  public static void gate(Gate value) {
    gate = value;
  }

  @Override
  public boolean writeIfAbsent(String path, byte[] content) throws IOException {
    gate.beforePublish(path, content);
    return local.writeIfAbsent(local(path), content);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    return local.create(local(path));
  }

  @Override
  public PendingFile createPending(String path) throws IOException {
    return local.createPending(local(path));
  }

  @Override
  public InputStream open(String path) throws IOException {
    return local.open(local(path));
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    return local.readAll(local(path));
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    return local.readRange(local(path), offset, length);
  }

  @Override
  public List<FileInfo> listFrom(String directory, String fromName) throws IOException {
    return local.listFrom(local(directory), fromName);
  }

  @Override
  public boolean prefersLookupsToListing() {
    return local.prefersLookupsToListing();
  }

  @Override
  public List<String> listDirectories(String directory) throws IOException {
    return local.listDirectories(local(directory));
  }

  @Override
  public List<FileInfo> listRecursive(String directory) throws IOException {
    return local.listRecursive(local(directory));
  }

  @Override
  public boolean exists(String path) throws IOException {
    return local.exists(local(path));
  }

  @Override
  public boolean delete(String path) throws IOException {
    return local.delete(local(path));
  }

  @Override
  public void mkdirs(String directory) throws IOException {
    local.mkdirs(local(directory));
  }

  @Override
  public InputFile parquetInput(String path) throws IOException {
    return local.parquetInput(local(path));
  }

  @Override
  public OutputFile parquetOutput(String path) throws IOException {
    return local.parquetOutput(local(path));
  }

  @Override
  public RequestCounts requests() {
    return local.requests();
  }

  @Override
  public RequestCounts requestsOfThisThread() {
    return local.requestsOfThisThread();
  }

  private static String local(String path) {
    return path.startsWith(PREFIX) ? path.substring(PREFIX.length()) : path;
  }
}
