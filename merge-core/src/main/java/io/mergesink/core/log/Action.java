package io.mergesink.core.log;

/**
 * One line of a Delta commit file (PROTOCOL.md, "Actions"). Actions MergeSink does not model
 * ({@code cdc}, {@code checkpointMetadata}, {@code sidecar}, ...) are skipped when reading.
 */
public sealed interface Action
    permits Protocol, Metadata, AddFile, RemoveFile, SetTransaction, DomainMetadata, CommitInfo {}
