package io.mergesink.core.maintenance;

import io.mergesink.core.log.IntervalProperty;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.TombstoneRetention;
import java.time.Duration;

/**
 * The retention periods of a table, from its Delta properties (Spark calendar intervals such as
 * {@code interval 30 days}):
 * <ul>
 *   <li>{@value #LOG_RETENTION} (default 30 days): how long log files are kept;
 *   <li>{@code delta.deletedFileRetentionDuration} (default 1 week): how long removed data and DV
 *       files are kept, for vacuum.
 * </ul>
 */
public final class Retention {
  public static final String LOG_RETENTION = "delta.logRetentionDuration";
  public static final String DEFAULT_LOG_RETENTION = "interval 30 days";

  private Retention() {}

  /**
   * How long log files of a table with this metadata are kept.
   *
   * @throws IllegalArgumentException when the property is not an interval of one unit
   */
  public static Duration log(Metadata metadata) {
    return IntervalProperty.of(metadata, LOG_RETENTION, DEFAULT_LOG_RETENTION);
  }

  /** How long removed data and DV files of a table with this metadata are kept (vacuum's default). */
  public static Duration deletedFiles(Metadata metadata) {
    return Duration.ofMillis(TombstoneRetention.millis(metadata));
  }
}
