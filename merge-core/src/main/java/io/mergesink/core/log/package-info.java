/**
 * The Delta log: actions as records ({@link io.mergesink.core.log.Action}), their JSON commit-file
 * form ({@link io.mergesink.core.log.LogCodec}), the names of log files
 * ({@link io.mergesink.core.log.LogPaths}) and classic Parquet checkpoints
 * ({@link io.mergesink.core.log.CheckpointWriter}, {@link io.mergesink.core.log.CheckpointReader},
 * {@link io.mergesink.core.log.LastCheckpoint}).
 *
 * <p>Follows PROTOCOL.md of delta-io/delta, sections "Delta Log Entries", "Actions", "Checkpoints"
 * and "Table Features". Paths in {@code add}/{@code remove} stay URI-encoded as in the log;
 * {@link io.mergesink.core.log.LogPaths#resolve} turns them into storage paths.
 */
package io.mergesink.core.log;
