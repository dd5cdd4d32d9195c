package io.mergesink.core.commit;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import java.util.List;
import java.util.Optional;

/**
 * In-commit timestamps (PROTOCOL.md, "In-Commit Timestamps"): while the protocol lists
 * {@value #FEATURE} and {@value #PROPERTY} is true, every commit's {@code commitInfo} comes first
 * (as every MergeSink commit's does) and carries {@value #FIELD}: the later of now and one
 * millisecond after the previous commit's.
 */
public final class InCommitTimestamps {
  public static final String FEATURE = "inCommitTimestamp";
  public static final String PROPERTY = "delta.enableInCommitTimestamps";
  /** The {@code commitInfo} field. */
  public static final String FIELD = "inCommitTimestamp";

  private InCommitTimestamps() {}

  /** Whether commits of a table with {@code protocol} and {@code metadata} carry in-commit timestamps. */
  public static boolean enabled(Protocol protocol, Metadata metadata) {
    return protocol.supportsWriterFeature(FEATURE) && Boolean.parseBoolean(metadata.configuration().getOrDefault(PROPERTY, "false").trim());
  }

  /** Whether {@code action} is a metadata action that enables them (a new table's). */
  static boolean enables(Action action) {
    return action instanceof Metadata metadata && Boolean.parseBoolean(metadata.configuration().getOrDefault(PROPERTY, "false").trim());
  }

  /** The timestamp of a commit after one at {@code previous} (milliseconds since the epoch; {@link Long#MIN_VALUE}: none). */
  static long next(long previous) {
    long now = System.currentTimeMillis();
    return previous == Long.MIN_VALUE ? now : Math.max(now, previous + 1);
  }

  /** The in-commit timestamp of a commit's actions, empty when its {@code commitInfo} has none. */
  static Optional<Long> of(List<Action> commit) {
    for (Action action : commit) {
      if (action instanceof CommitInfo info && info.values().get(FIELD) instanceof Number timestamp) {
        return Optional.of(timestamp.longValue());
      }
    }
    return Optional.empty();
  }
}
