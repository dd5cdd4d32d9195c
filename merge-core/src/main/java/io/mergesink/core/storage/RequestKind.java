package io.mergesink.core.storage;

import java.util.Locale;

/**
 * The kinds of request a {@link Storage} makes. On S3 each is one HTTP request; on local disk and
 * HDFS each is one call of the {@link Storage} API of that kind (a listing, a lookup, a read...).
 */
public enum RequestKind {
  /** A whole-object read (GetObject). */
  GET,
  /** A read of a byte range (GetObject with {@code Range}): Parquet footers and column chunks, deletion vectors. */
  RANGED_GET,
  /** A single-request write of a whole object (PutObject). */
  PUT,
  /** A put-if-absent of a commit (PutObject with {@code If-None-Match: *}; hard link or rename elsewhere). */
  CONDITIONAL_PUT,
  /** One page of a listing (ListObjectsV2, up to 1,000 keys). */
  LIST,
  /** A metadata lookup (HeadObject / HeadBucket; {@code stat} elsewhere). */
  HEAD,
  /** A delete of one object. */
  DELETE,
  /** A multipart upload request: create, one per part, complete or abort. */
  MULTIPART;

  /** The name used in metrics: {@code ranged-get}, {@code conditional-put}... */
  public String metricName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
