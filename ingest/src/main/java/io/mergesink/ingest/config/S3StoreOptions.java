package io.mergesink.ingest.config;

import io.mergesink.core.storage.s3.S3Options;
import java.net.URI;
import java.time.Duration;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * The options of tables on S3 ({@code table.root=s3://bucket/path} or {@code s3a://}), with the names
 * other S3 sinks use, and their conversion to merge-core's {@link S3Options}. Without keys the SDK's
 * default credential chain applies (environment, system properties, web identity, profile,
 * container and instance roles).
 */
public final class S3StoreOptions {
  public static final String GROUP = "S3";
  public static final String REGION = "s3.region";
  public static final String ENDPOINT = "s3.endpoint";
  public static final String PATH_STYLE = "s3.path.style.access.enabled";
  public static final String ACCESS_KEY_ID = "aws.access.key.id";
  public static final String SECRET_ACCESS_KEY = "aws.secret.access.key";
  public static final String PART_SIZE = "s3.part.size";
  public static final String REQUEST_TIMEOUT_MS = "s3.request.timeout.ms";
  public static final String RETRIES = "s3.retries";

  private S3StoreOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup s3 = new ConfigGroup(def, GROUP);
    s3.option(REGION, Type.STRING).defaultValue("").importance(Importance.HIGH).displayName("S3 region")
        .doc("Region of the bucket, e.g. eu-west-1. Empty: the worker's AWS_REGION or profile region, or "
            + S3Options.DEFAULT_REGION + " with " + ENDPOINT + ".")
        .define();
    s3.option(ENDPOINT, Type.STRING).defaultValue("").validator(new HttpUrlValidator("http://minio:9000")).importance(Importance.MEDIUM)
        .width(Width.LONG).displayName("S3 endpoint")
        .doc("URL of an S3-compatible store (MinIO, Ceph, S3Proxy), e.g. http://minio:9000; empty for AWS S3. The "
            + "store must support conditional writes (If-None-Match: *), which validation checks.")
        .define();
    s3.option(PATH_STYLE, Type.BOOLEAN).defaultValue(false).importance(Importance.MEDIUM)
        .displayName("S3 path-style access")
        .doc("Address buckets as <endpoint>/<bucket> instead of <bucket>.<endpoint>; most S3-compatible stores need "
            + "it.")
        .define();
    s3.option(ACCESS_KEY_ID, Type.STRING).defaultValue("").importance(Importance.HIGH).displayName("AWS access key id")
        .doc("Access key id for S3, with " + SECRET_ACCESS_KEY + ". Empty: the SDK's default credential chain "
            + "(AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, web identity, profile, container or instance role).")
        .define();
    s3.option(SECRET_ACCESS_KEY, Type.PASSWORD).defaultValue("").importance(Importance.HIGH)
        .displayName("AWS secret access key")
        .doc("Secret access key of " + ACCESS_KEY_ID + ". Never logged; use a Connect config provider to keep it out "
            + "of the connector configuration.")
        .define();
    s3.option(PART_SIZE, Type.INT).defaultValue(S3Options.DEFAULT_PART_SIZE_BYTES)
        .validator(Range.atLeast(S3Options.MIN_PART_SIZE_BYTES)).importance(Importance.LOW).displayName("S3 part size")
        .doc("Data files larger than this are uploaded in parts of this many bytes (multipart upload); each file being "
            + "written holds one part in memory.")
        .define();
    s3.option(REQUEST_TIMEOUT_MS, Type.LONG).defaultValue(S3Options.DEFAULT_REQUEST_TIMEOUT.toMillis())
        .validator(Range.atLeast(1_000)).importance(Importance.LOW).displayName("S3 request timeout (ms)")
        .doc("Longest time one attempt of an S3 request may take, in milliseconds.")
        .define();
    s3.option(RETRIES, Type.INT).defaultValue(S3Options.DEFAULT_MAX_RETRIES).validator(Range.between(0, 20))
        .importance(Importance.LOW).displayName("S3 retries")
        .doc("Retries of an S3 request that failed with throttling, a server error or an I/O error, with jittered "
            + "backoff. A request still failing makes the commit fail; the task retries it and keeps its buffer.")
        .define();
  }

  /** The S3 options of {@code config}. */
  static S3Options options(AbstractConfig config) {
    S3Options options = S3Options.defaults()
        .withPathStyle(config.getBoolean(PATH_STYLE))
        .withPartSize(config.getInt(PART_SIZE))
        .withRequests(Duration.ofMillis(config.getLong(REQUEST_TIMEOUT_MS)), config.getInt(RETRIES));
    String region = config.getString(REGION).trim();
    if (!region.isEmpty()) {
      options = options.withRegion(region);
    }
    String endpoint = config.getString(ENDPOINT).trim();
    if (!endpoint.isEmpty()) {
      options = options.withEndpoint(URI.create(endpoint));
    }
    String keyId = config.getString(ACCESS_KEY_ID).trim();
    Password secret = config.getPassword(SECRET_ACCESS_KEY);
    if (!keyId.isEmpty()) {
      options = options.withCredentials(keyId, secret == null ? "" : secret.value());
    }
    return options;
  }
}
