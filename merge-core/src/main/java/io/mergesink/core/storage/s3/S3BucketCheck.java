package io.mergesink.core.storage.s3;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Checks, before a connector starts, that tables can live under an S3 root: the endpoint answers,
 * the bucket exists in the configured region, the credentials may read and write it, and the
 * store honours {@code If-None-Match: *} (a store that ignores it would let racing writers both
 * commit one version). It writes and deletes one small probe object under the root.
 */
public final class S3BucketCheck {
  private static final String PROBE_PREFIX = "_mergesink_probe_";
  private static final int MOVED_PERMANENTLY = 301;
  private static final int BAD_REQUEST = 400;
  private static final int FORBIDDEN = 403;
  private static final int NOT_FOUND = 404;
  private static final int PRECONDITION_FAILED = 412;
  private static final String BUCKET_REGION_HEADER = "x-amz-bucket-region";

  private S3BucketCheck() {}

  /** What a problem is about, so that a configuration UI can show it next to the setting to change. */
  public enum Subject {
    /** The table root: its bucket is missing, or it cannot be written. */
    ROOT,
    /** The region. */
    REGION,
    /** The endpoint: unreachable, or a store without conditional writes. */
    ENDPOINT,
    /** The credentials: refused, or not allowed to use the bucket. */
    CREDENTIALS
  }

  /** One thing that keeps tables from living under the root. */
  public record Problem(Subject subject, String message) {}

  /** What is wrong with {@code root} for {@code options}; empty when tables can live there. */
  public static Optional<Problem> problem(String root, S3Options options) {
    S3Location location;
    try {
      location = S3Location.parse(root);
    } catch (IllegalArgumentException e) {
      return Optional.of(new Problem(Subject.ROOT, e.getMessage()));
    }
    S3Client client;
    try {
      client = S3Clients.create(options);
    } catch (IllegalArgumentException | SdkException e) {
      return Optional.of(new Problem(Subject.REGION, e.getMessage()));
    }
    try (client) {
      return new Probe(client, location, options).run();
    }
  }

  private record Probe(S3Client client, S3Location root, S3Options options) {
    Optional<Problem> run() {
      String bucket = root.bucket();
      try {
        client.headBucket(head -> head.bucket(bucket));
      } catch (S3Exception e) {
        return Optional.of(bucketProblem(e));
      } catch (SdkClientException e) {
        return Optional.of(unreachable(e));
      }
      String key = root.directoryPrefix() + PROBE_PREFIX + UUID.randomUUID();
      String probe = root.pathOf(key);
      try {
        client.putObject(put -> put.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromString("probe"));
      } catch (S3Exception e) {
        return Optional.of(new Problem(e.statusCode() == FORBIDDEN ? Subject.CREDENTIALS : Subject.ROOT,
            "cannot write under " + root + ": PutObject of " + probe + " was refused with " + S3Requests.describe(e)
            + (e.statusCode() == FORBIDDEN ? "; the credentials need s3:PutObject, s3:GetObject, s3:DeleteObject and "
            + "s3:ListBucket on the bucket" : "")));
      } catch (SdkClientException e) {
        return Optional.of(unreachable(e));
      }
      try {
        client.putObject(put -> put.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromString("again"));
        return Optional.of(new Problem(Subject.ENDPOINT, "the store at " + endpoint() + " ignores If-None-Match: a "
            + "second conditional PutObject of " + probe + " succeeded where S3 answers 412, so two writers of one "
            + "table version could both commit; use a store with conditional writes (AWS S3, or a current MinIO or "
            + "Ceph)"));
      } catch (S3Exception e) {
        if (e.statusCode() != PRECONDITION_FAILED) {
          return Optional.of(new Problem(Subject.ENDPOINT, "a conditional PutObject of the existing probe " + probe
              + " got " + S3Requests.describe(e) + " instead of 412 Precondition Failed; the store must support "
              + "If-None-Match: *"));
        }
      } catch (SdkClientException e) {
        return Optional.of(unreachable(e));
      } finally {
        deleteQuietly(bucket, key);
      }
      return Optional.empty();
    }

    private Problem bucketProblem(S3Exception e) {
      String bucket = root.bucket();
      Optional<String> actualRegion = e.awsErrorDetails() == null ? Optional.empty()
          : e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader(BUCKET_REGION_HEADER);
      if (actualRegion.isPresent() && (e.statusCode() == MOVED_PERMANENTLY || e.statusCode() == BAD_REQUEST)) {
        return new Problem(Subject.REGION, "bucket " + bucket + " is in region " + actualRegion.get() + ", not "
            + configuredRegion() + ": set the region to " + actualRegion.get());
      }
      return switch (e.statusCode()) {
        case NOT_FOUND -> new Problem(Subject.ROOT, "bucket " + bucket + " does not exist at " + endpoint()
            + " (create it first)");
        case FORBIDDEN -> new Problem(Subject.CREDENTIALS, "access to bucket " + bucket + " at " + endpoint()
            + " was denied (HTTP 403): check the access key id and secret (or the worker's default credentials) and "
            + "the bucket's policy");
        default -> new Problem(Subject.ROOT, "bucket " + bucket + " at " + endpoint() + " cannot be used: HeadBucket got "
            + S3Requests.describe(e));
      };
    }

    private Problem unreachable(SdkClientException e) {
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof ConnectException) && !(cause instanceof UnknownHostException)) {
        cause = cause.getCause();
      }
      String why = cause instanceof UnknownHostException ? "unknown host " + cause.getMessage()
          : cause instanceof ConnectException ? "connection refused (" + cause.getMessage() + ")" : e.getMessage();
      return new Problem(Subject.ENDPOINT, "S3 endpoint " + endpoint() + " is unreachable: " + why);
    }

    private String endpoint() {
      return options.endpoint().map(Object::toString).orElse("AWS S3 (" + configuredRegion() + ")");
    }

    private String configuredRegion() {
      return client.serviceClientConfiguration().region().id();
    }

    private void deleteQuietly(String bucket, String key) {
      try {
        client.deleteObject(delete -> delete.bucket(bucket).key(key));
      } catch (SdkException e) {
        // the probe is a few bytes under the root; vacuum removes what is left
      }
    }
  }
}
