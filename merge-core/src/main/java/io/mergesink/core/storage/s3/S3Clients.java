package io.mergesink.core.storage.s3;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Builds the {@link S3Client} for {@link S3Options}: the SDK's synchronous Apache HttpClient 5
 * (pooled connections, settings per client rather than JVM-wide like {@code HttpURLConnection}'s),
 * the standard retry strategy (throttling, 5xx and I/O errors, with jittered backoff), and one
 * attempt timeout.
 */
public final class S3Clients {
  /** Enough for one task's sequential requests plus a key index build's parallel reads. */
  private static final int MAX_CONNECTIONS = 32;
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private S3Clients() {}

  /**
   * @throws IllegalArgumentException no region is configured and the SDK's region chain finds none
   *     (AWS without {@code s3.region}, AWS_REGION or a profile region)
   */
  public static S3Client create(S3Options options) {
    var builder = S3Client.builder()
        .httpClientBuilder(Apache5HttpClient.builder()
            .maxConnections(MAX_CONNECTIONS)
            .connectionTimeout(CONNECT_TIMEOUT)
            .socketTimeout(options.requestTimeout()))
        .region(region(options))
        .credentialsProvider(credentials(options))
        .forcePathStyle(options.pathStyle())
        .overrideConfiguration(c -> c
            .apiCallAttemptTimeout(options.requestTimeout())
            .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(options.maxRetries() + 1)
                .build()));
    options.endpoint().ifPresent(endpoint -> builder
        .endpointOverride(endpoint)
        // S3-compatible stores differ in their support of the SDK's newer default checksums
        // (aws-chunked uploads with trailing CRC32); send and check checksums where S3 requires them
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
    return builder.build();
  }

  private static Region region(S3Options options) {
    if (options.region().isPresent()) {
      return Region.of(options.region().get());
    }
    try {
      return new DefaultAwsRegionProviderChain().getRegion();
    } catch (SdkClientException e) {
      if (options.endpoint().isPresent()) {
        return Region.of(S3Options.DEFAULT_REGION);
      }
      throw new IllegalArgumentException("no S3 region: set the region of the bucket (s3.region), or AWS_REGION for "
          + "the Connect worker", e);
    }
  }

  private static AwsCredentialsProvider credentials(S3Options options) {
    return options.credentials()
        .<AwsCredentialsProvider>map(keys -> StaticCredentialsProvider.create(
            AwsBasicCredentials.create(keys.accessKeyId(), keys.secretAccessKey())))
        .orElseGet(() -> DefaultCredentialsProvider.builder().build());
  }
}
