package io.mergesink.core.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

/**
 * All file access of the table engine. Paths are absolute URIs or absolute local paths as strings
 * ({@code /data/t/_delta_log/00000000000000000000.json}, {@code s3a://bucket/t/part-0.parquet});
 * the engine builds them by joining a table root with Delta's relative paths.
 *
 * <p>The merge logic never touches a file system directly; {@link Storages} picks the
 * implementation for a table root by its scheme (docs/design.md, "Storage"). The one operation
 * with a strict contract is {@link #writeIfAbsent}: it is how two writers race for a Delta
 * version, and exactly one of them may win.
 *
 * <p>Every implementation counts its requests by kind ({@link #requests()}), so that what a commit
 * or a table open costs on an object store can be measured and kept O(files touched).
 */
public interface Storage extends AutoCloseable {

  /**
   * Atomically creates {@code path} with {@code content} unless it exists. Either the whole file
   * appears with the given content, or nothing changes and false is returned.
   *
   * @return true when this call created the file, false when it already existed
   */
  boolean writeIfAbsent(String path, byte[] content) throws IOException;

  /**
   * Creates or replaces a file that no other writer races for (data files, DV files,
   * {@code _last_checkpoint}). The content is streamed: object stores upload it in parts and never
   * hold the whole file in memory. A stream whose write or close failed leaves no new file on
   * object stores (the upload is aborted) and possibly a partial one elsewhere, which the caller
   * deletes or leaves unreferenced.
   */
  OutputStream create(String path) throws IOException;

  /**
   * A file that appears whole or not at all, put-if-absent (a checkpoint, which several writers may
   * produce for one version): streamed like {@link #create}, visible only after
   * {@link PendingFile#publish()}, discarded when closed unpublished. The caller closes it.
   */
  PendingFile createPending(String path) throws IOException;

  /** Opens a file for sequential reading. The caller closes the stream. */
  InputStream open(String path) throws IOException;

  /** Reads a whole (small) file. */
  byte[] readAll(String path) throws IOException;

  /** Reads {@code length} bytes at {@code offset}. */
  byte[] readRange(String path, long offset, int length) throws IOException;

  /**
   * The files directly inside {@code directory} whose names sort at or after {@code fromName},
   * sorted by name; empty when the directory does not exist.
   */
  List<FileInfo> listFrom(String directory, String fromName) throws IOException;

  /**
   * Whether looking a few files up by name with {@link #exists} costs less than one
   * {@link #listFrom} of a large directory, so a caller that can name the files it expects should
   * look them up. True on local file systems, whose directories have no order a listing could
   * start from: {@code listFrom} reads every entry, a lookup is one {@code stat}. False by default:
   * on object stores every lookup is a request, and a listing returns up to a thousand names per
   * request.
   */
  default boolean prefersLookupsToListing() {
    return false;
  }

  /** The paths of the directories directly inside {@code directory}, sorted; empty when it does not exist. */
  List<String> listDirectories(String directory) throws IOException;

  /**
   * Every file under {@code directory} at any depth (directories themselves are not listed),
   * sorted by name; empty when the directory does not exist. Here a {@link FileInfo#name()} is the
   * path relative to {@code directory} with {@code /} separators and no %xx escapes (e.g.
   * {@code p=1/part-0.parquet}). Checksum sidecars a file system keeps by itself (Hadoop's
   * {@code .crc}) may be left out. For vacuum, which must see files no log entry names.
   */
  List<FileInfo> listRecursive(String directory) throws IOException;

  boolean exists(String path) throws IOException;

  /**
   * Deletes a file.
   *
   * @return false when the file did not exist, as far as the storage can tell: S3's DeleteObject
   *     answers the same for a missing key, so there it is always true
   */
  boolean delete(String path) throws IOException;

  /** Creates the directory and its parents when missing. */
  void mkdirs(String directory) throws IOException;

  /** The file as a Parquet input. */
  InputFile parquetInput(String path) throws IOException;

  /** A new file as a Parquet output (created or replaced). */
  OutputFile parquetOutput(String path) throws IOException;

  /** The requests this storage made since it was created, by kind. */
  RequestCounts requests();

  /**
   * The requests this storage made on the calling thread since it was created, by kind: the
   * difference of two readings is what one operation asked for while others ran on other threads.
   * A storage that counts no requests per thread answers {@link #requests()}.
   */
  default RequestCounts requestsOfThisThread() {
    return requests();
  }

  /** Releases what the storage holds (an S3 client's connection pool); local storage holds nothing. */
  @Override
  default void close() {}

  /** A file in a listing. */
  record FileInfo(String path, String name, long size, long modificationTime) {}
}
