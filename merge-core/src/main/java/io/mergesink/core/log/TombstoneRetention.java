package io.mergesink.core.log;

/**
 * How long a {@code remove} must be kept as a tombstone: the table property
 * {@code delta.deletedFileRetentionDuration} (a Spark calendar interval such as
 * {@code interval 1 week}), one week by default as in Delta.
 */
public final class TombstoneRetention {
  public static final String DEFAULT = "interval 1 week";

  private TombstoneRetention() {}

  /**
   * The retention in milliseconds of a table with this metadata.
   *
   * @throws IllegalArgumentException when the property is not an interval of one unit
   */
  public static long millis(Metadata metadata) {
    return IntervalProperty.of(metadata, Metadata.DELETED_FILE_RETENTION, DEFAULT).toMillis();
  }
}
