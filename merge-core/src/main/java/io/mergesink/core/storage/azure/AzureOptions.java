package io.mergesink.core.storage.azure;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach Azure Blob Storage.
 *
 * @param endpoint the Blob service URL including the account for an emulator or a private endpoint
 *     (Azurite: {@code http://127.0.0.1:10000/devstoreaccount1}); empty: {@code https://<account>.blob.<suffix>}
 *     from the table root's host
 * @param credentials an account key, a SAS token, or the default Azure credential chain
 * @param blockSizeBytes the size of staged blocks, and of the buffer each open upload holds
 * @param requestTimeout how long one attempt of a request may take
 * @param maxRetries retries of a failed request (throttling, 5xx, I/O errors) after the first attempt
 */
public record AzureOptions(Optional<URI> endpoint, Credentials credentials, int blockSizeBytes, Duration requestTimeout,
    int maxRetries) {
  /** Small enough that a table's many open files stay cheap, large enough for few requests per file. */
  public static final int MIN_BLOCK_SIZE_BYTES = 1024 * 1024;
  public static final int DEFAULT_BLOCK_SIZE_BYTES = 8 * 1024 * 1024;
  /** Azure's largest staged block. */
  public static final int MAX_BLOCK_SIZE_BYTES = 1024 * 1024 * 1024;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_RETRIES = 5;

  public AzureOptions {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (blockSizeBytes < MIN_BLOCK_SIZE_BYTES || blockSizeBytes > MAX_BLOCK_SIZE_BYTES) {
      throw new IllegalArgumentException("Azure block size must be between " + MIN_BLOCK_SIZE_BYTES + " and "
          + MAX_BLOCK_SIZE_BYTES + " bytes, found " + blockSizeBytes);
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("Azure retries must be >= 0, found " + maxRetries);
    }
    if (requestTimeout.toSeconds() < 1) {
      throw new IllegalArgumentException("Azure request timeout must be at least a second, found " + requestTimeout);
    }
  }

  /** The account's public endpoint with the default Azure credential chain. */
  public static AzureOptions defaults() {
    return new AzureOptions(Optional.empty(), new DefaultChain(), DEFAULT_BLOCK_SIZE_BYTES, DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_MAX_RETRIES);
  }

  /** The Blob service at {@code url} (an emulator, a private endpoint). */
  public AzureOptions withEndpoint(URI url) {
    return new AzureOptions(Optional.of(url), credentials, blockSizeBytes, requestTimeout, maxRetries);
  }

  public AzureOptions withCredentials(Credentials value) {
    return new AzureOptions(endpoint, value, blockSizeBytes, requestTimeout, maxRetries);
  }

  public AzureOptions withBlockSize(int bytes) {
    return new AzureOptions(endpoint, credentials, bytes, requestTimeout, maxRetries);
  }

  public AzureOptions withRequests(Duration timeout, int retries) {
    return new AzureOptions(endpoint, credentials, blockSizeBytes, timeout, retries);
  }

  /** How requests are authorized. The records holding secrets never show them in {@link Object#toString()}. */
  public sealed interface Credentials permits AccountKey, SasToken, DefaultChain {}

  /** Shared Key authorization with the account's access key (base64, as the portal shows it). */
  public record AccountKey(String key) implements Credentials {
    public AccountKey {
      Objects.requireNonNull(key, "key");
    }

    @Override
    public String toString() {
      return "AccountKey[(hidden)]";
    }
  }

  /** A shared access signature (account or container SAS), with or without its leading {@code ?}. */
  public record SasToken(String token) implements Credentials {
    public SasToken {
      Objects.requireNonNull(token, "token");
      token = token.startsWith("?") ? token.substring(1) : token;
    }

    @Override
    public String toString() {
      return "SasToken[(hidden)]";
    }
  }

  /**
   * Entra ID tokens from the default Azure credential chain: environment (service principal),
   * workload identity (AKS), managed identity, then developer tools (Azure CLI, PowerShell).
   */
  public record DefaultChain() implements Credentials {}
}
