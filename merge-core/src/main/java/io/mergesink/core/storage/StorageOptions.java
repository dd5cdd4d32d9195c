package io.mergesink.core.storage;

import io.mergesink.core.storage.s3.S3Options;
import java.util.Map;
import java.util.Objects;

/**
 * What the storages of {@link Storages} may need besides the table root.
 *
 * @param hadoop Hadoop settings for {@code hdfs://} roots (name nodes, Kerberos, client options)
 * @param s3 how to reach S3 for {@code s3://} and {@code s3a://} roots
 */
public record StorageOptions(Map<String, String> hadoop, S3Options s3) {
  public StorageOptions {
    hadoop = Map.copyOf(hadoop);
    Objects.requireNonNull(s3, "s3");
  }

  /** No Hadoop settings, AWS S3 with the SDK's default chains. */
  public static StorageOptions defaults() {
    return new StorageOptions(Map.of(), S3Options.defaults());
  }

  public static StorageOptions hadoop(Map<String, String> hadoop) {
    return new StorageOptions(hadoop, S3Options.defaults());
  }
}
