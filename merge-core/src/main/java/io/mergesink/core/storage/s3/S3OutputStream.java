package io.mergesink.core.storage.s3;

import io.mergesink.core.storage.PartedOutputStream;
import io.mergesink.core.storage.RequestKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Streams one object to S3 ({@link PartedOutputStream}): a file that fits in one part is one
 * PutObject, a larger one a multipart upload, aborted on failure so that no object and no stored
 * parts are left.
 */
final class S3OutputStream extends PartedOutputStream {
  private static final String OCTET_STREAM = "application/octet-stream";
  private static final int PRECONDITION_FAILED = 412;

  private final S3Requests requests;
  private final S3Location location;
  private final List<CompletedPart> parts = new ArrayList<>();
  private String uploadId;

  S3OutputStream(S3Requests requests, S3Location location, int partSizeBytes) {
    super(location.toString(), partSizeBytes);
    this.requests = requests;
    this.location = location;
  }

  /** One PutObject, with {@code If-None-Match: *} when {@code ifAbsent}. */
  @Override
  protected boolean putWhole(byte[] bytes, int length, boolean ifAbsent) throws IOException {
    try {
      requests.call(ifAbsent ? RequestKind.CONDITIONAL_PUT : RequestKind.PUT, location, "PutObject", client -> client.putObject(
          put -> put.bucket(location.bucket()).key(location.key()).ifNoneMatch(ifAbsent ? "*" : null), body(bytes, length)));
      return true;
    } catch (IOException e) {
      return existed(e, ifAbsent);
    }
  }

  /** CreateMultipartUpload before the first part, then one UploadPart. */
  @Override
  protected void putPart(int partNumber, byte[] bytes, int length) throws IOException {
    if (uploadId == null) {
      uploadId = requests.call(RequestKind.MULTIPART, location, "CreateMultipartUpload", client -> client.createMultipartUpload(
          create -> create.bucket(location.bucket()).key(location.key()))).uploadId();
    }
    String eTag = requests.call(RequestKind.MULTIPART, location, "UploadPart " + partNumber, client -> client.uploadPart(
        upload -> upload.bucket(location.bucket()).key(location.key()).uploadId(uploadId).partNumber(partNumber),
        body(bytes, length))).eTag();
    parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
  }

  /** CompleteMultipartUpload, with {@code If-None-Match: *} when {@code ifAbsent}. */
  @Override
  protected boolean completeParts(boolean ifAbsent) throws IOException {
    try {
      requests.call(RequestKind.MULTIPART, location, "CompleteMultipartUpload", client -> client.completeMultipartUpload(
          complete -> complete.bucket(location.bucket()).key(location.key()).uploadId(uploadId)
              .ifNoneMatch(ifAbsent ? "*" : null).multipartUpload(upload -> upload.parts(parts))));
      return true;
    } catch (IOException e) {
      return existed(e, ifAbsent);
    }
  }

  /** AbortMultipartUpload (best effort: a lifecycle rule for incomplete uploads covers a failed abort). */
  @Override
  protected void discardParts() throws IOException {
    if (uploadId != null) {
      requests.call(RequestKind.MULTIPART, location, "AbortMultipartUpload", client -> client.abortMultipartUpload(
          abort -> abort.bucket(location.bucket()).key(location.key()).uploadId(uploadId)));
    }
  }

  /** False for a 412 of a conditional write (the key exists); rethrows anything else. */
  private static boolean existed(IOException e, boolean ifAbsent) throws IOException {
    if (ifAbsent && e.getCause() instanceof S3Exception s3 && s3.statusCode() == PRECONDITION_FAILED) {
      return false;
    }
    throw e;
  }

  /** The bytes as a request body, without a copy; each (retried) attempt reads them anew. */
  private static RequestBody body(byte[] bytes, int length) {
    return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(bytes, 0, length), length, OCTET_STREAM);
  }
}
