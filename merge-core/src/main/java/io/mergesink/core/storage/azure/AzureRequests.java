package io.mergesink.core.storage.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.mergesink.core.storage.RequestCounter;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The requests of one {@link AzureStorage}: the account's client and its request counter, and the
 * turning of the SDK's unchecked exceptions into the {@link IOException}s the engine handles (a
 * missing blob becomes {@link FileNotFoundException}), with messages naming the request and the blob.
 * The client counts the requests itself ({@link AzureClients}).
 */
final class AzureRequests {
  static final int NOT_FOUND = 404;
  static final int CONFLICT = 409;
  static final int PRECONDITION_FAILED = 412;
  private static final String ANY_ETAG = "*";

  final BlobServiceClient client;
  final String account;
  final RequestCounter counter;

  AzureRequests(BlobServiceClient client, String account, RequestCounter counter) {
    this.client = client;
    this.account = account;
    this.counter = counter;
  }

  /**
   * The client of one blob.
   *
   * @throws IllegalArgumentException the blob is in another account: a storage's client and
   *     credentials are those of one account
   */
  BlockBlobClient blob(AzureLocation location) {
    return container(location).getBlobClient(location.name()).getBlockBlobClient();
  }

  /** The client of the container of {@code location}, which must be in this storage's account (see {@link #blob}). */
  BlobContainerClient container(AzureLocation location) {
    if (!location.account().equals(account)) {
      throw new IllegalArgumentException("blob " + location + " is not in storage account " + account
          + ", the account of this storage's table root");
    }
    return client.getBlobContainerClient(location.container());
  }

  /** One request about {@code location}. */
  <T> T call(AzureLocation location, String what, Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == NOT_FOUND) {
        FileNotFoundException missing = new FileNotFoundException("no blob " + location + " (" + what + ": " + describe(e) + ")");
        missing.initCause(e);
        throw missing;
      }
      throw new IOException(what + " " + location + " failed: " + describe(e), e);
    } catch (UncheckedIOException e) {
      throw new IOException(what + " " + location + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      // connection failures, timeouts and authentication errors surface as various unchecked exceptions
      throw new IOException(what + " " + location + " failed: " + e.getMessage(), e);
    }
  }

  /** {@code If-None-Match: *}: the write succeeds only where no blob exists. */
  static BlobRequestConditions ifAbsent() {
    return new BlobRequestConditions().setIfNoneMatch(ANY_ETAG);
  }

  /** Whether a conditional write failed because the blob exists: 409 {@code BlobAlreadyExists}, or 412. */
  static boolean blobExisted(IOException e) {
    return e.getCause() instanceof BlobStorageException azure && (azure.getStatusCode() == PRECONDITION_FAILED
        || azure.getStatusCode() == CONFLICT && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(azure.getErrorCode()));
  }

  /** {@code HTTP 403 AuthorizationPermissionMismatch} (status and Azure error code, without the XML body). */
  static String describe(BlobStorageException e) {
    return "HTTP " + e.getStatusCode() + (e.getErrorCode() == null ? "" : " " + e.getErrorCode());
  }

  /** A request made with the client; may throw the SDK's unchecked exceptions. */
  @FunctionalInterface
  interface Call<T> {
    T run();
  }
}
