package io.mergesink.quickstart;

import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.core.storage.s3.S3Storage;
import io.mergesink.locals3.LocalS3;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where the demo's table lives: a local directory, or a bucket of a throwaway S3 server (S3Proxy)
 * that the demo starts and stops, storing its objects as plain files under the table directory.
 *
 * <p>The caller owns the location and must {@link #close()} it (stops the S3 server).
 */
final class TableLocation implements AutoCloseable {
  /** The bucket of the S3 mode. */
  static final String BUCKET = "lake";
  /** Where, under the table directory, the S3 server keeps its buckets. */
  static final String S3_DATA_DIR = "s3-data";

  private final String root;
  private final Storage storage;
  private final Map<String, String> sinkOptions;
  private final LocalS3 server;
  private final Path localCopy;

  private TableLocation(String root, Storage storage, Map<String, String> sinkOptions, LocalS3 server, Path localCopy) {
    this.root = root;
    this.storage = storage;
    this.sinkOptions = sinkOptions;
    this.server = server;
    this.localCopy = localCopy;
  }

  /** Tables under the local directory {@code tableDir}. */
  static TableLocation local(Path tableDir) {
    String root = tableDir.toAbsolutePath().normalize().toString();
    return new TableLocation(root, new LocalStorage(), Map.of("table.root", root), null, null);
  }

  /** Tables in bucket {@value #BUCKET} of an S3 server started now, its objects under {@code tableDir}/{@value #S3_DATA_DIR}. */
  static TableLocation s3(Path tableDir) {
    Path data = tableDir.toAbsolutePath().normalize().resolve(S3_DATA_DIR);
    LocalS3 server = LocalS3.start(data);
    server.createBucket(BUCKET);
    S3Options options = S3Options.defaults().withRegion(LocalS3.REGION).withEndpoint(URI.create(server.endpoint()))
        .withPathStyle(true).withCredentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY);
    String root = "s3://" + BUCKET + "/tables";
    Map<String, String> sinkOptions = Map.of("table.root", root, "s3.endpoint", server.endpoint(),
        "s3.path.style.access.enabled", "true", "s3.region", LocalS3.REGION, "aws.access.key.id", LocalS3.ACCESS_KEY,
        "aws.secret.access.key", LocalS3.SECRET_KEY);
    return new TableLocation(root, S3Storage.create(options), sinkOptions, server, data.resolve(BUCKET).resolve("tables"));
  }

  /** The table root, a local path or {@code s3://...}. */
  String root() {
    return root;
  }

  /** The path of the table {@code relative} to the root. */
  String table(String relative) {
    return root + "/" + relative;
  }

  Storage storage() {
    return storage;
  }

  /** The options that point the sink at this location ({@code table.root}, and the S3 options in S3 mode). */
  Map<String, String> sinkOptions() {
    return sinkOptions;
  }

  /** What to tell the user about this location, one line each. */
  List<String> describe() {
    if (server == null) {
      return List.of("Table root:      " + root + " (kept after the demo)");
    }
    return List.of("Table root:      " + root + " on a local S3 server (S3Proxy) at " + server.endpoint(),
        "                 its objects are plain files under " + localCopy.getParent().getParent() + " (kept after the demo)");
  }

  /**
   * For the S3 mode: the table as a local directory once the S3 server has stopped (S3Proxy keeps
   * each object as a file named by its key), so local readers can open it.
   */
  Path localCopyOf(String relative) {
    return localCopy == null ? null : localCopy.resolve(relative);
  }

  @Override
  public void close() {
    storage.close();
    if (server != null) {
      server.close();
    }
  }
}
