package io.mergesink.core.storage.s3;

import io.mergesink.core.storage.RequestKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Streams one object to S3: the bytes collect in a part-sized buffer; a file that fits in one part
 * is one PutObject at {@link #close()}, a larger one a multipart upload (a part per full buffer,
 * completed at close). So a file is never held whole in memory, only one part of it.
 *
 * <p>States: OPEN → CLOSED, or OPEN → FAILED when a request fails. On failure the multipart
 * upload is aborted, so no object and no stored parts are left; every later call throws, naming
 * the first error. A stream is closed exactly once; nothing is visible before close.
 */
final class S3OutputStream extends OutputStream {
  private enum State { OPEN, CLOSED, FAILED }

  private final S3Requests requests;
  private final S3Location location;
  /** Small files (commits' neighbours: DVs, {@code _last_checkpoint}) never allocate a whole part. */
  private static final int INITIAL_BUFFER_BYTES = 64 * 1024;

  private static final String OCTET_STREAM = "application/octet-stream";
  private static final int PRECONDITION_FAILED = 412;

  private final int partSize;
  private byte[] buffer;
  private final List<CompletedPart> parts = new ArrayList<>();
  private int buffered;
  private String uploadId;
  private State state = State.OPEN;
  private IOException failure;

  S3OutputStream(S3Requests requests, S3Location location, int partSizeBytes) {
    this.requests = requests;
    this.location = location;
    this.partSize = partSizeBytes;
    this.buffer = new byte[Math.min(INITIAL_BUFFER_BYTES, partSizeBytes)];
  }

  @Override
  public void write(int b) throws IOException {
    ensureOpen();
    makeRoom();
    buffer[buffered++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    while (len > 0) {
      makeRoom();
      int n = Math.min(len, buffer.length - buffered);
      System.arraycopy(b, off, buffer, buffered, n);
      buffered += n;
      off += n;
      len -= n;
    }
  }

  /** Publishes the object, replacing one that exists: one PutObject, or the last part and CompleteMultipartUpload. */
  @Override
  public void close() throws IOException {
    if (state != State.CLOSED) {
      finish(false);
    }
  }

  /**
   * Publishes the object; with {@code ifAbsent}, only when the key does not exist
   * ({@code If-None-Match: *} on the PutObject or the CompleteMultipartUpload).
   *
   * @return false when {@code ifAbsent} and the key existed: nothing was published, the upload is aborted
   */
  boolean finish(boolean ifAbsent) throws IOException {
    ensureOpen();
    try {
      if (uploadId == null) {
        requests.call(ifAbsent ? RequestKind.CONDITIONAL_PUT : RequestKind.PUT, location, "PutObject", client -> client.putObject(
            put -> put.bucket(location.bucket()).key(location.key()).ifNoneMatch(ifAbsent ? "*" : null), bufferedBody()));
      } else {
        if (buffered > 0 || parts.isEmpty()) {
          uploadPart();
        }
        requests.call(RequestKind.MULTIPART, location, "CompleteMultipartUpload", client -> client.completeMultipartUpload(
            complete -> complete.bucket(location.bucket()).key(location.key()).uploadId(uploadId)
                .ifNoneMatch(ifAbsent ? "*" : null).multipartUpload(upload -> upload.parts(parts))));
      }
      state = State.CLOSED;
      return true;
    } catch (IOException e) {
      fail(e);
      if (ifAbsent && e.getCause() instanceof S3Exception s3 && s3.statusCode() == PRECONDITION_FAILED) {
        return false;
      }
      throw e;
    }
  }

  /** Discards what was written: aborts the multipart upload, if one was started. */
  void abort() {
    if (state == State.OPEN) {
      fail(new IOException("upload of " + location + " was discarded"));
    }
  }

  /** Grows the buffer up to a part, or uploads the full part. */
  private void makeRoom() throws IOException {
    if (buffered < buffer.length) {
      return;
    }
    if (buffer.length < partSize) {
      buffer = java.util.Arrays.copyOf(buffer, (int) Math.min(partSize, 2L * buffer.length));
    } else {
      uploadPart();
    }
  }

  private void uploadPart() throws IOException {
    try {
      if (uploadId == null) {
        uploadId = requests.call(RequestKind.MULTIPART, location, "CreateMultipartUpload", client -> client.createMultipartUpload(
            create -> create.bucket(location.bucket()).key(location.key()))).uploadId();
      }
      int partNumber = parts.size() + 1;
      String eTag = requests.call(RequestKind.MULTIPART, location, "UploadPart " + partNumber, client -> client.uploadPart(
          upload -> upload.bucket(location.bucket()).key(location.key()).uploadId(uploadId).partNumber(partNumber),
          bufferedBody())).eTag();
      parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
      buffered = 0;
    } catch (IOException e) {
      fail(e);
      throw e;
    }
  }

  /** The buffered bytes as a request body, without a copy; each (retried) attempt reads them anew. */
  private RequestBody bufferedBody() {
    byte[] bytes = buffer;
    int length = buffered;
    return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(bytes, 0, length), length, OCTET_STREAM);
  }

  /** Aborts the upload (best effort: a lifecycle rule for incomplete uploads covers a failed abort). */
  private void fail(IOException cause) {
    state = State.FAILED;
    failure = cause;
    if (uploadId != null) {
      try {
        requests.call(RequestKind.MULTIPART, location, "AbortMultipartUpload", client -> client.abortMultipartUpload(
            abort -> abort.bucket(location.bucket()).key(location.key()).uploadId(uploadId)));
      } catch (IOException e) {
        cause.addSuppressed(e);
      }
    }
  }

  private void ensureOpen() throws IOException {
    if (state == State.FAILED) {
      throw new IOException("upload of " + location + " failed earlier and was aborted", failure);
    }
    if (state == State.CLOSED) {
      throw new IOException("upload of " + location + " is closed");
    }
  }
}
