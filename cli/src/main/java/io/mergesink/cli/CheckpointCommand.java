package io.mergesink.cli;

import io.mergesink.core.maintenance.LogCleaner;
import io.mergesink.core.maintenance.LogCleanup;
import io.mergesink.core.maintenance.Retention;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mergesink checkpoint TABLE}: writes a checkpoint of the latest version, then deletes log
 * files older than {@code delta.logRetentionDuration} (30 days by default) below the newest
 * checkpoint that old; txns live on in the checkpoints.
 */
@Command(name = "checkpoint", description = "Checkpoint the latest version, then delete log files older than delta.logRetentionDuration.")
final class CheckpointCommand extends TableCommand {
  @Option(names = "--keep-log", description = "Only checkpoint; delete no log file.")
  boolean keepLog;

  @Override
  String icebergAlternative() {
    return ", whose metadata has no log to checkpoint";
  }

  @Override
  void run(PrintWriter out) throws IOException {
    Snapshot snapshot = snapshot();
    LogCleaner cleaner = new LogCleaner(storage());
    cleaner.checkpoint(snapshot);
    LogCleanup cleanup = keepLog
        ? new LogCleanup(java.util.OptionalLong.empty(), java.util.List.of())
        : cleaner.clean(snapshot.tableRoot(), Retention.log(snapshot.metadata()), System.currentTimeMillis());
    if (json) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("checkpointVersion", snapshot.version());
      result.put("logRetentionDays", Retention.log(snapshot.metadata()).toDays());
      result.put("expiredBelowVersion", cleanup.keptFromVersion().isPresent() ? cleanup.keptFromVersion().getAsLong() : null);
      result.put("deletedLogFiles", cleanup.expiredFiles().stream().map(Storage.FileInfo::name).toList());
      printJson(out, result);
      return;
    }
    out.printf("checkpoint written at version %d%n", snapshot.version());
    out.printf("deleted %d expired log files%s%n", cleanup.expiredFiles().size(),
        cleanup.keptFromVersion().isPresent() ? " (versions below " + cleanup.keptFromVersion().getAsLong() + ")" : "");
  }
}
