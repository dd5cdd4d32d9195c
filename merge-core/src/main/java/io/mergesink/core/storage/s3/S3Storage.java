package io.mergesink.core.storage.s3;

import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.RangedInputFile;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StreamOutputFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link Storage} on S3 and S3-compatible stores ({@code s3://} and {@code s3a://} paths) over the AWS
 * SDK v2, with no lock service and no DynamoDB (docs/design.md, "Storage"):
 * <ul>
 *   <li>commits: PutObject with {@code If-None-Match: *}. HTTP 412 means another writer has the
 *       version; 409 ({@code ConditionalRequestConflict}: a concurrent conditional write of the
 *       same key was in flight) is retried;
 *   <li>data, deletion vector and other files: streamed, a multipart upload for files larger than
 *       one part ({@link S3OutputStream}), aborted on failure;
 *   <li>Parquet and deletion vectors: ranged GETs ({@link RangedInputFile}, {@link #readRange});
 *   <li>listings: ListObjectsV2 from a start key ({@code StartAfter}), page by page.
 * </ul>
 * S3 has no directories: {@link #mkdirs} makes no request, a "directory" is a key prefix ending in
 * {@code /}. Thread-safe, like the client. {@link #close()} closes the client.
 */
public final class S3Storage implements Storage {
  /** 409 answers in a row before a put-if-absent gives up (each one means a racing write was in flight). */
  private static final int MAX_CONFLICT_ATTEMPTS = 10;
  private static final long CONFLICT_BACKOFF_MILLIS = 50;
  private static final int PRECONDITION_FAILED = 412;
  private static final int CONFLICT = 409;
  private static final String DELIMITER = "/";

  private final S3Requests requests;
  private final int partSizeBytes;

  public S3Storage(S3Client client, int partSizeBytes) {
    this.requests = new S3Requests(client);
    this.partSizeBytes = partSizeBytes;
  }

  /** A storage with its own client for {@code options}; closing the storage closes it. */
  public static S3Storage create(S3Options options) {
    return new S3Storage(S3Clients.create(options), options.partSizeBytes());
  }

  /**
   * PutObject with {@code If-None-Match: *}. A 412 for a key holding exactly {@code content} counts
   * as created: the SDK retries a request whose answer was lost, and the retry of a put that had
   * succeeded gets 412 from its own object.
   */
  @Override
  public boolean writeIfAbsent(String path, byte[] content) throws IOException {
    S3Location location = S3Location.parse(path);
    for (int attempt = 1; ; attempt++) {
      try {
        requests.call(RequestKind.CONDITIONAL_PUT, location, "conditional PutObject", client -> client.putObject(
            put -> put.bucket(location.bucket()).key(location.key()).ifNoneMatch("*"), RequestBody.fromBytes(content)));
        return true;
      } catch (IOException e) {
        int status = e.getCause() instanceof S3Exception s3 ? s3.statusCode() : -1;
        if (status == PRECONDITION_FAILED) {
          return Arrays.equals(readAll(path), content);
        }
        if (status != CONFLICT || attempt == MAX_CONFLICT_ATTEMPTS) {
          throw e;
        }
        pause(attempt);
      }
    }
  }

  @Override
  public OutputStream create(String path) {
    return new S3OutputStream(requests, S3Location.parse(path), partSizeBytes);
  }

  /**
   * Streamed like {@link #create}, published with {@code If-None-Match: *} on the PutObject (small
   * files) or on the CompleteMultipartUpload; closing it unpublished aborts the upload.
   */
  @Override
  public PendingFile createPending(String path) {
    return new S3OutputStream(requests, S3Location.parse(path), partSizeBytes).pending();
  }

  @Override
  public InputStream open(String path) throws IOException {
    S3Location location = S3Location.parse(path);
    return requests.call(RequestKind.GET, location, "GetObject", client -> client.getObject(
        get -> get.bucket(location.bucket()).key(location.key())));
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    S3Location location = S3Location.parse(path);
    return requests.call(RequestKind.GET, location, "GetObject", client -> client.getObjectAsBytes(
        get -> get.bucket(location.bucket()).key(location.key())).asByteArray());
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    return range(S3Location.parse(path), offset, length, RequestKind.RANGED_GET);
  }

  /** {@code length} bytes at {@code offset}, in one GET with {@code Range: bytes=offset-(offset+length-1)}. */
  byte[] range(S3Location location, long offset, int length, RequestKind kind) throws IOException {
    if (length == 0) {
      return new byte[0];
    }
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    byte[] bytes = requests.call(kind, location, "GetObject " + range, client -> client.getObjectAsBytes(
        get -> get.bucket(location.bucket()).key(location.key()).range(range)).asByteArray());
    if (bytes.length != length) {
      throw new IOException("object " + location + " ends before byte " + (offset + length) + " (read " + bytes.length
          + " of " + length + " bytes at offset " + offset + ")");
    }
    return bytes;
  }

  /** The object's size, from one HeadObject. */
  long length(S3Location location) throws IOException {
    return requests.call(RequestKind.HEAD, location, "HeadObject", client -> client.headObject(
        head -> head.bucket(location.bucket()).key(location.key()))).contentLength();
  }

  /**
   * One ListObjectsV2 page per 1,000 names, starting just before {@code fromName}: the cost is the
   * number of files at or after it, not the directory's size.
   */
  @Override
  public List<FileInfo> listFrom(String directory, String fromName) throws IOException {
    S3Location dir = S3Location.parse(directory);
    String prefix = dir.directoryPrefix();
    ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(dir.bucket()).prefix(prefix)
        .delimiter(DELIMITER);
    if (!fromName.isEmpty()) {
      request.startAfter(prefix + justBefore(fromName));
    }
    List<FileInfo> files = new ArrayList<>();
    for (ListObjectsV2Response page : pages(dir, request)) {
      for (S3Object object : page.contents()) {
        String name = object.key().substring(prefix.length());
        if (!name.isEmpty() && name.compareTo(fromName) >= 0) {
          files.add(info(dir, object, name));
        }
      }
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public List<String> listDirectories(String directory) throws IOException {
    S3Location dir = S3Location.parse(directory);
    String prefix = dir.directoryPrefix();
    List<String> directories = new ArrayList<>();
    for (ListObjectsV2Response page : pages(dir, ListObjectsV2Request.builder().bucket(dir.bucket()).prefix(prefix)
        .delimiter(DELIMITER))) {
      for (CommonPrefix common : page.commonPrefixes()) {
        String key = common.prefix();
        directories.add(dir.pathOf(key.substring(0, key.length() - DELIMITER.length())));
      }
    }
    directories.sort(Comparator.naturalOrder());
    return directories;
  }

  @Override
  public List<FileInfo> listRecursive(String directory) throws IOException {
    S3Location dir = S3Location.parse(directory);
    String prefix = dir.directoryPrefix();
    List<FileInfo> files = new ArrayList<>();
    for (ListObjectsV2Response page : pages(dir, ListObjectsV2Request.builder().bucket(dir.bucket()).prefix(prefix))) {
      for (S3Object object : page.contents()) {
        String name = object.key().substring(prefix.length());
        if (!name.isEmpty() && !name.endsWith(DELIMITER)) {
          files.add(info(dir, object, name));
        }
      }
    }
    files.sort(Comparator.comparing(FileInfo::name));
    return files;
  }

  @Override
  public boolean exists(String path) throws IOException {
    S3Location location = S3Location.parse(path);
    try {
      length(location);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    S3Location location = S3Location.parse(path);
    requests.call(RequestKind.DELETE, location, "DeleteObject", client -> client.deleteObject(
        delete -> delete.bucket(location.bucket()).key(location.key())));
    return true;
  }

  /** Nothing to do: S3 has no directories. */
  @Override
  public void mkdirs(String directory) {
    S3Location.parse(directory);
  }

  @Override
  public InputFile parquetInput(String path) {
    S3Location location = S3Location.parse(path);
    return new RangedInputFile(location.toString(), new RangedInputFile.Ranges() {
      @Override
      public long length() throws IOException {
        return S3Storage.this.length(location);
      }

      @Override
      public byte[] read(long offset, int length) throws IOException {
        return range(location, offset, length, RequestKind.RANGED_GET);
      }
    });
  }

  @Override
  public OutputFile parquetOutput(String path) {
    S3Location location = S3Location.parse(path);
    return new StreamOutputFile(path, () -> new S3OutputStream(requests, location, partSizeBytes));
  }

  /** API calls by kind; the SDK's own retries of a call are not counted again. */
  @Override
  public RequestCounts requests() {
    return requests.counter().read();
  }

  @Override
  public RequestCounts requestsOfThisThread() {
    return requests.counter().readThisThread();
  }

  @Override
  public void close() {
    requests.client.close();
  }

  /** Every page of a listing, one request each (counted), following continuation tokens. */
  private List<ListObjectsV2Response> pages(S3Location dir, ListObjectsV2Request.Builder request) throws IOException {
    List<ListObjectsV2Response> pages = new ArrayList<>();
    String token = null;
    do {
      ListObjectsV2Request pageRequest = request.continuationToken(token).build();
      ListObjectsV2Response page = requests.call(RequestKind.LIST, dir, "ListObjectsV2", client -> client.listObjectsV2(pageRequest));
      pages.add(page);
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    return pages;
  }

  private static FileInfo info(S3Location dir, S3Object object, String name) {
    return new FileInfo(dir.pathOf(object.key()), name, object.size(), object.lastModified().toEpochMilli());
  }

  /**
   * A key that sorts just before {@code name} and after every key that sorts before it, as
   * {@code StartAfter} is exclusive: {@code name} with its last character lowered by one. The
   * listing may then include a few names between the two, which the caller filters.
   */
  static String justBefore(String name) {
    char last = name.charAt(name.length() - 1);
    String head = name.substring(0, name.length() - 1);
    return last == Character.MIN_VALUE ? head : head + (char) (last - 1);
  }

  private static void pause(int attempt) throws IOException {
    try {
      Thread.sleep(CONFLICT_BACKOFF_MILLIS * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while retrying a conditional put");
    }
  }
}
