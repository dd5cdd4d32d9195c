package io.mergesink.core.log;

/**
 * One line of a Delta commit file or one row of a checkpoint (PROTOCOL.md, "Actions"). Actions
 * MergeSink does not model are skipped when reading.
 */
public sealed interface Action
    permits Protocol, Metadata, AddFile, RemoveFile, SetTransaction, DomainMetadata, CommitInfo, Sidecar, CheckpointMetadata,
    AddCDCFile {}
