package io.mergesink.core.storage;

import io.mergesink.core.storage.azure.AzureOptions;
import io.mergesink.core.storage.s3.S3Options;
import java.util.Map;
import java.util.Objects;

/**
 * What the storages of {@link Storages} may need besides the table root.
 *
 * @param hadoop Hadoop settings for {@code hdfs://} roots (name nodes, Kerberos, client options)
 * @param s3 how to reach S3 for {@code s3://} and {@code s3a://} roots
 * @param azure how to reach Azure Blob Storage for {@code abfss://} and {@code wasbs://} roots
 */
public record StorageOptions(Map<String, String> hadoop, S3Options s3, AzureOptions azure) {
  public StorageOptions {
    hadoop = Map.copyOf(hadoop);
    Objects.requireNonNull(s3, "s3");
    Objects.requireNonNull(azure, "azure");
  }

  /** No Hadoop settings, AWS S3 and Azure with the SDKs' default chains. */
  public static StorageOptions defaults() {
    return hadoop(Map.of());
  }

  public static StorageOptions hadoop(Map<String, String> hadoop) {
    return new StorageOptions(hadoop, S3Options.defaults(), AzureOptions.defaults());
  }

  public StorageOptions withS3(S3Options value) {
    return new StorageOptions(hadoop, value, azure);
  }

  public StorageOptions withAzure(AzureOptions value) {
    return new StorageOptions(hadoop, s3, value);
  }
}
