package io.mergesink.core.storage.azure;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.mergesink.core.storage.PartedOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Streams one blob to Azure ({@link PartedOutputStream}): a file that fits in one block is one Put
 * Blob, a larger one is staged block by block (Put Block) and committed with Put Block List. Staged
 * blocks are invisible until committed and Azure discards uncommitted blocks by itself (after a
 * week, or when the blob is next written), so a failed or discarded stream leaves no blob and needs
 * no request to clean up.
 *
 * <p>Block ids carry a random stream id: two writers racing for one blob name (checkpoints) stage
 * their blocks side by side, and each commits only its own. Every id has the same length, as Azure
 * requires of one blob's blocks.
 */
final class AzureOutputStream extends PartedOutputStream {
  private static final String BLOCK_ID_FORMAT = "%s-%06d";

  private final AzureRequests requests;
  private final AzureLocation location;
  private final BlockBlobClient blob;
  private final String streamId = UUID.randomUUID().toString();
  private final List<String> blockIds = new ArrayList<>();

  AzureOutputStream(AzureRequests requests, AzureLocation location, int blockSizeBytes) {
    super(location.toString(), blockSizeBytes);
    this.requests = requests;
    this.location = location;
    this.blob = requests.blob(location);
  }

  /** One Put Blob, with {@code If-None-Match: *} when {@code ifAbsent}. */
  @Override
  protected boolean putWhole(byte[] bytes, int length, boolean ifAbsent) throws IOException {
    try {
      requests.call(location, "Put Blob", () -> blob.uploadWithResponse(
          new BlockBlobSimpleUploadOptions(body(bytes, length)).setRequestConditions(conditions(ifAbsent)), null,
          Context.NONE));
      return true;
    } catch (IOException e) {
      return existed(e, ifAbsent);
    }
  }

  @Override
  protected void putPart(int partNumber, byte[] bytes, int length) throws IOException {
    String blockId = Base64.getEncoder().encodeToString(
        String.format(BLOCK_ID_FORMAT, streamId, partNumber).getBytes(StandardCharsets.US_ASCII));
    requests.call(location, "Put Block " + partNumber, () -> blob.stageBlockWithResponse(
        new BlockBlobStageBlockOptions(blockId, body(bytes, length)), null, Context.NONE));
    blockIds.add(blockId);
  }

  /** Put Block List of this stream's blocks, with {@code If-None-Match: *} when {@code ifAbsent}. */
  @Override
  protected boolean completeParts(boolean ifAbsent) throws IOException {
    try {
      requests.call(location, "Put Block List", () -> blob.commitBlockListWithResponse(
          new BlockBlobCommitBlockListOptions(blockIds).setRequestConditions(conditions(ifAbsent)), null, Context.NONE));
      return true;
    } catch (IOException e) {
      return existed(e, ifAbsent);
    }
  }

  /** Nothing to send: uncommitted blocks are never visible and Azure discards them. */
  @Override
  protected void discardParts() {
    blockIds.clear();
  }

  private static BlobRequestConditions conditions(boolean ifAbsent) {
    return ifAbsent ? AzureRequests.ifAbsent() : null;
  }

  /** False for the answer of a conditional write whose blob exists; rethrows anything else. */
  private static boolean existed(IOException e, boolean ifAbsent) throws IOException {
    if (ifAbsent && AzureRequests.blobExisted(e)) {
      return false;
    }
    throw e;
  }

  /** The bytes as a request body, without a copy; a retried attempt reads them anew. */
  private static BinaryData body(byte[] bytes, int length) {
    return BinaryData.fromByteBuffer(ByteBuffer.wrap(bytes, 0, length).asReadOnlyBuffer());
  }
}
