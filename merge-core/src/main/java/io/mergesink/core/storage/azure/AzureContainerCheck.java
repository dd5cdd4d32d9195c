package io.mergesink.core.storage.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.mergesink.core.storage.RequestCounter;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks, before a connector starts, that tables can live under an Azure root: the endpoint
 * answers, the container exists, the credentials may write and delete in it, and the service
 * honours {@code If-None-Match: *} (a store that ignores it would let racing writers both commit
 * one version). It writes and deletes one small probe blob under the root.
 */
public final class AzureContainerCheck {
  private static final String PROBE_PREFIX = "_mergesink_probe_";
  private static final int FORBIDDEN = 403;

  private AzureContainerCheck() {}

  /** What a problem is about, so that a configuration UI can show it next to the setting to change. */
  public enum Subject {
    /** The table root: its container is missing, or it cannot be written. */
    ROOT,
    /** The endpoint: unreachable, or a store without conditional writes. */
    ENDPOINT,
    /** The credentials: refused, or not allowed to use the container. */
    CREDENTIALS
  }

  /** One thing that keeps tables from living under the root. */
  public record Problem(Subject subject, String message) {}

  /** What is wrong with {@code root} for {@code options}; empty when tables can live there. */
  public static Optional<Problem> problem(String root, AzureOptions options) {
    AzureLocation location;
    try {
      location = AzureLocation.parse(root);
    } catch (IllegalArgumentException e) {
      return Optional.of(new Problem(Subject.ROOT, e.getMessage()));
    }
    BlobServiceClient client;
    try {
      // one retry: a check that waits out the full backoff for an unreachable endpoint is no help
      client = AzureClients.create(location, options.withRequests(options.requestTimeout(), Math.min(options.maxRetries(), 1)),
          new RequestCounter());
    } catch (IllegalArgumentException | IllegalStateException e) {
      return Optional.of(new Problem(Subject.CREDENTIALS, "cannot build an Azure client for " + root + ": " + e.getMessage()));
    }
    return new Probe(client, location, options).run();
  }

  private record Probe(BlobServiceClient client, AzureLocation root, AzureOptions options) {
    Optional<Problem> run() {
      String name = root.directoryPrefix() + PROBE_PREFIX + UUID.randomUUID();
      String probe = root.pathOf(name);
      BlockBlobClient blob = client.getBlobContainerClient(root.container()).getBlobClient(name).getBlockBlobClient();
      try {
        put(blob, "probe");
      } catch (BlobStorageException e) {
        return Optional.of(refused(e, probe));
      } catch (ClientAuthenticationException e) {
        return Optional.of(noToken(e));
      } catch (RuntimeException e) {
        return Optional.of(unreachable(e));
      }
      try {
        put(blob, "again");
        return Optional.of(new Problem(Subject.ENDPOINT, "the store at " + endpoint() + " ignores If-None-Match: a "
            + "second conditional Put Blob of " + probe + " succeeded where Azure answers 409 BlobAlreadyExists, so two "
            + "writers of one table version could both commit; use Azure Blob Storage or a current Azurite"));
      } catch (BlobStorageException e) {
        if (!existed(e)) {
          return Optional.of(new Problem(Subject.ENDPOINT, "a conditional Put Blob of the existing probe " + probe
              + " got " + AzureRequests.describe(e) + " instead of 409 BlobAlreadyExists; the store must support "
              + "If-None-Match: *"));
        }
      } catch (RuntimeException e) {
        return Optional.of(unreachable(e));
      } finally {
        deleteQuietly(blob);
      }
      return Optional.empty();
    }

    private static void put(BlockBlobClient blob, String content) {
      blob.uploadWithResponse(new BlockBlobSimpleUploadOptions(BinaryData.fromString(content))
          .setRequestConditions(AzureRequests.ifAbsent()), null, Context.NONE);
    }

    private static boolean existed(BlobStorageException e) {
      return e.getStatusCode() == AzureRequests.PRECONDITION_FAILED || e.getStatusCode() == AzureRequests.CONFLICT
          && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode());
    }

    private Problem refused(BlobStorageException e, String probe) {
      if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode())) {
        return new Problem(Subject.ROOT, "container " + root.container() + " does not exist in account "
            + root.account() + " at " + endpoint() + " (create it first)");
      }
      if (e.getStatusCode() == FORBIDDEN) {
        return new Problem(Subject.CREDENTIALS, "cannot write under " + root + ": Put Blob of " + probe + " was "
            + "refused with " + AzureRequests.describe(e) + "; check the account key or SAS token (read, add, create, "
            + "write, delete and list permissions), or give the worker's identity the Storage Blob Data Contributor "
            + "role on the container");
      }
      return new Problem(Subject.ROOT, "cannot write under " + root + ": Put Blob of " + probe + " was refused with "
          + AzureRequests.describe(e));
    }

    private Problem unreachable(RuntimeException e) {
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof ConnectException) && !(cause instanceof UnknownHostException)) {
        cause = cause.getCause();
      }
      String why = cause instanceof UnknownHostException ? "unknown host " + cause.getMessage()
          : cause instanceof ConnectException ? "connection refused (" + cause.getMessage() + ")" : e.getMessage();
      return new Problem(Subject.ENDPOINT, "Azure Blob endpoint " + endpoint() + " cannot be used: " + why);
    }

    private Problem noToken(ClientAuthenticationException e) {
      return new Problem(Subject.CREDENTIALS, "the default Azure credential chain found no identity for "
          + root.account() + " (" + e.getMessage() + "); set an account key or a SAS token, or give the Connect "
          + "worker an identity (managed identity, workload identity, AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET)");
    }

    private String endpoint() {
      return options.endpoint().map(Object::toString).orElse(root.blobEndpoint());
    }

    private void deleteQuietly(BlockBlobClient blob) {
      try {
        blob.deleteIfExists();
      } catch (RuntimeException e) {
        // the probe is a few bytes under the root; vacuum removes what is left
      }
    }
  }
}
