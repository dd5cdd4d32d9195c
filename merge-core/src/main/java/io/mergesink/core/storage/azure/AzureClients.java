package io.mergesink.core.storage.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.mergesink.core.storage.RequestCounter;
import io.mergesink.core.storage.RequestKind;
import java.net.URI;
import java.time.Duration;

/**
 * Builds the {@link BlobServiceClient} of one storage account for {@link AzureOptions}: the JDK's
 * HTTP client ({@code java.net.http}, no Netty), the storage retry policy (exponential backoff on
 * throttling, 5xx and I/O errors) with a per-attempt timeout, and a policy that counts each API call
 * by {@link RequestKind} once, however often it is retried.
 */
public final class AzureClients {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final HttpHeaderName RANGE = HttpHeaderName.fromString("x-ms-range");

  private AzureClients() {}

  /** A client of the account of {@code root}, counting its requests in {@code counter}. */
  public static BlobServiceClient create(AzureLocation root, AzureOptions options, RequestCounter counter) {
    BlobServiceClientBuilder builder = new BlobServiceClientBuilder()
        .endpoint(options.endpoint().map(URI::toString).orElse(root.blobEndpoint()))
        .httpClient(new JdkHttpClientBuilder().connectionTimeout(CONNECT_TIMEOUT).build())
        .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, options.maxRetries() + 1,
            (int) options.requestTimeout().toSeconds(), null, null, null))
        .addPolicy(new CountingPolicy(counter));
    if (options.credentials() instanceof AzureOptions.AccountKey key) {
      builder.credential(new StorageSharedKeyCredential(root.account(), key.key()));
    } else if (options.credentials() instanceof AzureOptions.SasToken sas) {
      builder.sasToken(sas.token());
    } else {
      builder.credential(new DefaultAzureCredentialBuilder().build());
    }
    return builder.buildClient();
  }

  /** The kind of an Azure Blob request, from its method, query and headers. */
  static RequestKind kind(HttpRequest request) {
    String query = request.getUrl().getQuery() == null ? "" : request.getUrl().getQuery();
    HttpMethod method = request.getHttpMethod();
    if (method == HttpMethod.DELETE) {
      return RequestKind.DELETE;
    }
    if (method == HttpMethod.HEAD) {
      return RequestKind.HEAD;
    }
    if (method == HttpMethod.GET) {
      if (query.contains("comp=list")) {
        return RequestKind.LIST;
      }
      if (query.contains("restype=container")) {
        return RequestKind.HEAD;
      }
      return request.getHeaders().getValue(RANGE) != null || request.getHeaders().getValue(HttpHeaderName.RANGE) != null
          ? RequestKind.RANGED_GET : RequestKind.GET;
    }
    if (query.contains("comp=block")) {
      return RequestKind.MULTIPART; // Put Block and Put Block List
    }
    return "*".equals(request.getHeaders().getValue(HttpHeaderName.IF_NONE_MATCH)) ? RequestKind.CONDITIONAL_PUT
        : RequestKind.PUT;
  }

  /** Runs once per API call, before the retry policy, so that retries are not counted again. */
  private static final class CountingPolicy extends HttpPipelineSyncPolicy {
    private final RequestCounter counter;

    CountingPolicy(RequestCounter counter) {
      this.counter = counter;
    }

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
      counter.count(kind(context.getHttpRequest()));
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
      return HttpPipelinePosition.PER_CALL;
    }
  }
}
