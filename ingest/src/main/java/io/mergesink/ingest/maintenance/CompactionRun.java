package io.mergesink.ingest.maintenance;

import io.mergesink.core.maintenance.CompactionResult;
import java.io.IOException;

/**
 * One compaction of one table, prepared on the thread that drives the engine (snapshot, scope and
 * options fixed) and run on the compaction thread: it shares no state with the table's writer.
 */
@FunctionalInterface
public interface CompactionRun {
  CompactionResult compact() throws IOException;
}
