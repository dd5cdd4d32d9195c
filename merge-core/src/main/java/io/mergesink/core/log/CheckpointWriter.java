package io.mergesink.core.log;

import io.mergesink.core.storage.PendingFile;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StreamOutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a single-file checkpoint (PROTOCOL.md, "Checkpoints") holding the reconciled state of a
 * snapshot (its protocol, metadata, txns, domain metadata, live files and unexpired tombstones, one
 * action per row), then {@code _delta_log/_last_checkpoint}. The kind is the one the table asks for:
 * a table with the {@code v2Checkpoint} feature and {@value #POLICY_PROPERTY}{@code =v2} gets a
 * UUID-named V2 checkpoint ({@code <version>.checkpoint.<uuid>.parquet}, V2 spec: a
 * {@code checkpointMetadata} row first, its file actions inline, no sidecars); every other table a
 * classic V1 checkpoint ({@code <version>.checkpoint.parquet}), which every table allows. Never a
 * multi-part one, which V2 tables forbid.
 *
 * <p>The Parquet file is written in one pass and streamed (uploaded in parts on object stores) to a
 * {@link PendingFile}, published put-if-absent only once complete, so a reader never sees a
 * half-written checkpoint and a failure half-way leaves none. When a checkpoint of that version
 * already exists (another writer made it) it is kept. A crash after the checkpoint and before
 * {@code _last_checkpoint} leaves a stale hint, which readers tolerate.
 */
public final class CheckpointWriter {
  /** The table property choosing the checkpoint kind ({@code classic} or {@code v2}). */
  public static final String POLICY_PROPERTY = "delta.checkpointPolicy";
  private static final String V2_POLICY = "v2";
  private static final String V2_FEATURE = "v2Checkpoint";
  /** With true, checkpoints must hold {@code stats_parsed} and {@code partitionValues_parsed}, which MergeSink does not write. */
  public static final String STATS_AS_STRUCT_PROPERTY = "delta.checkpoint.writeStatsAsStruct";
  /** With false, checkpoints must not hold the JSON {@code stats} (PROTOCOL.md, "Checkpoints"). */
  public static final String STATS_AS_JSON_PROPERTY = "delta.checkpoint.writeStatsAsJson";

  private CheckpointWriter() {}

  /**
   * Why MergeSink cannot write the checkpoints the table asks for, empty when it can: a table with
   * {@value #STATS_AS_STRUCT_PROPERTY}{@code =true} wants statistics and partition values as
   * structs, which MergeSink does not write (it writes them as JSON). Checkpoints are optional, so
   * such a table is written without them.
   */
  public static java.util.Optional<String> whyNot(Metadata metadata) {
    return Boolean.parseBoolean(metadata.configuration().getOrDefault(STATS_AS_STRUCT_PROPERTY, "false").trim())
        ? java.util.Optional.of(STATS_AS_STRUCT_PROPERTY + "=true asks checkpoints for stats_parsed and partitionValues_parsed, "
            + "which MergeSink does not write")
        : java.util.Optional.empty();
  }

  /** Whether checkpoints of the table are UUID-named V2 ones. */
  public static boolean writesV2(Protocol protocol, Metadata metadata) {
    return protocol.supportsReaderFeature(V2_FEATURE)
        && V2_POLICY.equalsIgnoreCase(metadata.configuration().getOrDefault(POLICY_PROPERTY, "classic").trim());
  }

  /** Checkpoints {@code snapshot}, dropping tombstones older than the table's retention as of now. */
  public static void write(Storage storage, String root, TableState snapshot) throws IOException {
    write(storage, root, snapshot, System.currentTimeMillis());
  }

  /**
   * Checkpoints {@code snapshot}, keeping tombstones deleted after
   * {@code nowMillis - }{@link TombstoneRetention#millis}.
   *
   * @throws IOException when the checkpoint or {@code _last_checkpoint} cannot be written; a failure
   *     before the checkpoint is published leaves nothing behind
   * @throws IllegalStateException when the table asks for a checkpoint MergeSink cannot write ({@link #whyNot})
   */
  public static void write(Storage storage, String root, TableState snapshot, long nowMillis) throws IOException {
    whyNot(snapshot.metadata()).ifPresent(reason -> {
      throw new IllegalStateException("table " + root + ": no checkpoint written: " + reason);
    });
    boolean statsAsJson = Boolean.parseBoolean(snapshot.metadata().configuration().getOrDefault(STATS_AS_JSON_PROPERTY, "true").trim());
    long minTombstoneTimestamp = nowMillis - TombstoneRetention.millis(snapshot.metadata());
    boolean v2 = writesV2(snapshot.protocol(), snapshot.metadata());
    List<Action> actions = new ArrayList<>();
    if (v2) {
      actions.add(new CheckpointMetadata(snapshot.version(), null));
    }
    actions.add(snapshot.protocol());
    actions.add(snapshot.metadata());
    actions.addAll(snapshot.transactions().values());
    actions.addAll(snapshot.domainMetadata().values());
    for (AddFile file : snapshot.files().values()) {
      actions.add(statsAsJson ? file : file.withStats(null));
    }
    for (RemoveFile tombstone : snapshot.tombstones()) {
      if (tombstone.deletionTimestamp() != null && tombstone.deletionTimestamp() > minTombstoneTimestamp) {
        actions.add(tombstone);
      }
    }

    storage.mkdirs(LogPaths.logDir(root));
    String path = v2 ? LogPaths.uuidCheckpointFile(root, snapshot.version(), UUID.randomUUID()) : LogPaths.checkpointFile(root, snapshot.version());
    try (PendingFile checkpoint = storage.createPending(path)) {
      writeParquet(actions, v2 ? CheckpointSchema.V2_SCHEMA : CheckpointSchema.SCHEMA, checkpoint.stream());
      checkpoint.publish();
    }
    long adds = snapshot.files().size();
    new LastCheckpoint(snapshot.version(), actions.size(), null, adds).write(storage, root);
  }

  /**
   * The actions as one checkpoint Parquet file of {@code schema} ({@link CheckpointSchema#SCHEMA} or
   * {@link CheckpointSchema#V2_SCHEMA}), in memory (for tests that assemble checkpoints by hand).
   */
  static byte[] toParquet(List<Action> actions, MessageType schema) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    writeParquet(actions, schema, bytes);
    return bytes.toByteArray();
  }

  /** Writes the actions as one checkpoint Parquet file of {@code schema} (Snappy-compressed, one action per row) to {@code out}, and closes it. */
  static void writeParquet(List<Action> actions, MessageType schema, OutputStream out) throws IOException {
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new StreamOutputFile("checkpoint", () -> out))
        .withType(schema)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .build()) {
      CheckpointRows rows = new CheckpointRows(schema);
      for (Action action : actions) {
        writer.write(rows.toRow(action));
      }
    }
  }
}
