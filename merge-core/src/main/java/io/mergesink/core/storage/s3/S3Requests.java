package io.mergesink.core.storage.s3;

import io.mergesink.core.storage.RequestCounter;
import io.mergesink.core.storage.RequestKind;
import java.io.FileNotFoundException;
import java.io.IOException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The requests of one {@link S3Storage}: counts each and turns the SDK's unchecked exceptions into
 * the {@link IOException}s the engine handles (a missing key becomes {@link FileNotFoundException}),
 * with messages naming the request and the object.
 */
final class S3Requests {
  static final int NOT_FOUND = 404;

  final S3Client client;
  private final RequestCounter counter = new RequestCounter();

  S3Requests(S3Client client) {
    this.client = client;
  }

  RequestCounter counter() {
    return counter;
  }

  /** One request of {@code kind} about {@code location}. */
  <T> T call(RequestKind kind, S3Location location, String what, Call<T> call) throws IOException {
    counter.count(kind);
    try {
      return call.run(client);
    } catch (S3Exception e) {
      if (e.statusCode() == NOT_FOUND) {
        FileNotFoundException missing = new FileNotFoundException("no object " + location + " (" + what + ": "
            + describe(e) + ")");
        missing.initCause(e);
        throw missing;
      }
      throw new IOException(what + " " + location + " failed: " + describe(e), e);
    } catch (SdkException e) {
      throw new IOException(what + " " + location + " failed: " + e.getMessage(), e);
    }
  }

  /** {@code 403 AccessDenied: Access Denied} (status, S3 error code, message). */
  static String describe(S3Exception e) {
    String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
    return "HTTP " + e.statusCode() + (code == null ? "" : " " + code) + (message == null ? "" : ": " + message);
  }

  /** A request made with the client; may throw the SDK's unchecked exceptions. */
  @FunctionalInterface
  interface Call<T> {
    T run(S3Client client);
  }
}
