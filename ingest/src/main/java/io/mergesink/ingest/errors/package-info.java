/**
 * The engine's errors, by what a front end does about them: a record that cannot be written
 * ({@link io.mergesink.ingest.errors.BadRecordException}: fail or set it aside), storage that failed
 * for now ({@link io.mergesink.ingest.errors.RetriableStorageException}: retry), an engine that cannot
 * go on ({@link io.mergesink.ingest.errors.FatalIngestException}: stop).
 */
package io.mergesink.ingest.errors;
