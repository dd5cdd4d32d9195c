package io.mergesink.ingest.config;

import java.util.List;

/**
 * Options given by prefix, read with {@code originalsWithPrefix}: not in the {@code ConfigDef} (it has no
 * wildcards) but documented with it.
 */
public final class PassThroughOptions {
  public static final String GROUP = "Pass-through properties";
  public static final String TABLE_PROPERTIES_PREFIX = "table.properties.";
  public static final String HADOOP_PREFIX = "hadoop.";

  /** An option family given by a prefix. */
  public record PrefixOption(String prefix, String group, String doc) {}

  /** Every prefix option, in the order the reference lists them. */
  public static final List<PrefixOption> PREFIX_OPTIONS = List.of(
      new PrefixOption(TABLE_PROPERTIES_PREFIX, GROUP,
          "Every " + TABLE_PROPERTIES_PREFIX + "<key>=<value> is copied, without the prefix, into the Delta "
              + "configuration of tables this connector creates, e.g. table.properties.delta.logRetentionDuration="
              + "interval 7 days. A delta.* property that enables a table feature is honoured when MergeSink meets the "
              + "feature's requirements (the protocol then lists it: delta.appendOnly=true with write.mode=append, "
              + "delta.enableDeletionVectors=true, delta.enableChangeDataFeed=true for a change feed written with every "
              + "commit, delta.feature.<name>=supported for deletionVectors, timestampNtz, domainMetadata) and refused by "
              + "validation otherwise (column mapping, type widening, row tracking, v2 checkpoints, ...), as are unknown "
              + "delta.* keys; retention, checkpoint and statistics settings pass."),
      new PrefixOption(HADOOP_PREFIX, GROUP,
          "Every " + HADOOP_PREFIX + "<key>=<value> is set, without the prefix, on the Hadoop configuration of "
              + "hdfs:// table roots, e.g. hadoop.dfs.client.use.datanode.hostname=true. S3 tables do not use Hadoop: "
              + "see the " + S3StoreOptions.GROUP + " group."));

  private PassThroughOptions() {}
}
