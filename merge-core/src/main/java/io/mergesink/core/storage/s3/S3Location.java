package io.mergesink.core.storage.s3;

import java.util.Locale;

/**
 * A path on S3, {@code s3://bucket/key} or {@code s3a://bucket/key}, split into its parts. The key is
 * taken as written (no %xx decoding), as local paths are.
 *
 * @param scheme {@code s3} or {@code s3a}, kept so that listed paths look like the paths asked for
 */
record S3Location(String scheme, String bucket, String key) {
  static final String S3 = "s3";
  static final String S3A = "s3a";

  static boolean isS3(String scheme) {
    return scheme != null && (S3.equals(scheme.toLowerCase(Locale.ROOT)) || S3A.equals(scheme.toLowerCase(Locale.ROOT)));
  }

  /** @throws IllegalArgumentException {@code path} is not an s3:// or s3a:// URI with a bucket */
  static S3Location parse(String path) {
    int colon = path.indexOf("://");
    String scheme = colon < 0 ? null : path.substring(0, colon);
    if (!isS3(scheme)) {
      throw new IllegalArgumentException("not an S3 path (s3://bucket/key or s3a://bucket/key): " + path);
    }
    String rest = path.substring(colon + 3);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("S3 path without a bucket: " + path);
    }
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    while (key.startsWith("/")) {
      key = key.substring(1);
    }
    return new S3Location(scheme.toLowerCase(Locale.ROOT), bucket, key);
  }

  /** The key as a directory prefix: ends with {@code /}, or empty for the bucket's top. */
  String directoryPrefix() {
    return key.isEmpty() || key.endsWith("/") ? key : key + "/";
  }

  /** The path of another key in the same bucket, in this location's scheme. */
  String pathOf(String otherKey) {
    return scheme + "://" + bucket + "/" + otherKey;
  }

  @Override
  public String toString() {
    return pathOf(key);
  }
}
