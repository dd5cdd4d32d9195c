package io.mergesink.core.storage.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach S3 or an S3-compatible store.
 *
 * @param region the signing region; empty: the SDK's region chain (AWS_REGION, profile, instance
 *     metadata), or {@value #DEFAULT_REGION} when an endpoint is given and the chain finds none
 * @param endpoint the store's URL for S3-compatible stores (MinIO, Ceph, S3Proxy); empty for AWS
 * @param pathStyle path-style addressing ({@code endpoint/bucket/key}) instead of virtual hosts
 * @param credentials static keys, or empty for the SDK's default credential chain (environment,
 *     system properties, web identity, profile, container and instance roles)
 * @param partSizeBytes the size of multipart upload parts, and of the buffer each open upload holds
 * @param requestTimeout how long one attempt of a request may take
 * @param maxRetries retries of a failed request (throttling, 5xx, I/O errors) after the first attempt
 */
public record S3Options(Optional<String> region, Optional<URI> endpoint, boolean pathStyle,
    Optional<StaticCredentials> credentials, int partSizeBytes, Duration requestTimeout, int maxRetries) {
  public static final String DEFAULT_REGION = "us-east-1";
  /** S3's smallest part size (but for the last part). */
  public static final int MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
  public static final int DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_RETRIES = 5;

  public S3Options {
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (partSizeBytes < MIN_PART_SIZE_BYTES) {
      throw new IllegalArgumentException("S3 part size must be at least " + MIN_PART_SIZE_BYTES + " bytes, found " + partSizeBytes);
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("S3 retries must be >= 0, found " + maxRetries);
    }
  }

  /** AWS S3 with the SDK's default region and credential chains. */
  public static S3Options defaults() {
    return new S3Options(Optional.empty(), Optional.empty(), false, Optional.empty(), DEFAULT_PART_SIZE_BYTES,
        DEFAULT_REQUEST_TIMEOUT, DEFAULT_MAX_RETRIES);
  }

  public S3Options withRegion(String value) {
    return new S3Options(Optional.of(value), endpoint, pathStyle, credentials, partSizeBytes, requestTimeout, maxRetries);
  }

  /** An S3-compatible store at {@code url}. */
  public S3Options withEndpoint(URI url) {
    return new S3Options(region, Optional.of(url), pathStyle, credentials, partSizeBytes, requestTimeout, maxRetries);
  }

  /** Path-style addressing ({@code endpoint/bucket/key}) when {@code enabled}, else virtual hosts. */
  public S3Options withPathStyle(boolean enabled) {
    return new S3Options(region, endpoint, enabled, credentials, partSizeBytes, requestTimeout, maxRetries);
  }

  public S3Options withCredentials(String accessKeyId, String secretAccessKey) {
    return new S3Options(region, endpoint, pathStyle, Optional.of(new StaticCredentials(accessKeyId, secretAccessKey)),
        partSizeBytes, requestTimeout, maxRetries);
  }

  public S3Options withPartSize(int bytes) {
    return new S3Options(region, endpoint, pathStyle, credentials, bytes, requestTimeout, maxRetries);
  }

  public S3Options withRequests(Duration timeout, int retries) {
    return new S3Options(region, endpoint, pathStyle, credentials, partSizeBytes, timeout, retries);
  }

  /** An access key pair; {@link #toString()} never shows the secret. */
  public record StaticCredentials(String accessKeyId, String secretAccessKey) {
    public StaticCredentials {
      Objects.requireNonNull(accessKeyId, "accessKeyId");
      Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    }

    @Override
    public String toString() {
      return "StaticCredentials[accessKeyId=" + accessKeyId + ", secretAccessKey=(hidden)]";
    }
  }
}
