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
  public static final String ICEBERG_CATALOG_PREFIX = "iceberg.catalog.";
  public static final String PAIMON_CATALOG_PREFIX = "paimon.catalog.";

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
              + "see the " + S3StoreOptions.GROUP + " group."),
      new PrefixOption(ICEBERG_CATALOG_PREFIX, GROUP,
          "With table.format=iceberg: every " + ICEBERG_CATALOG_PREFIX + "<key>=<value> is a property, without the prefix, "
              + "of the Iceberg catalog the tables are in, as Iceberg's own Kafka sink takes them: "
              + ICEBERG_CATALOG_PREFIX + "type=rest|jdbc|hive|hadoop (default hadoop), " + ICEBERG_CATALOG_PREFIX + "uri, "
              + ICEBERG_CATALOG_PREFIX + "warehouse (default: table.root), " + ICEBERG_CATALOG_PREFIX + "catalog-impl, "
              + ICEBERG_CATALOG_PREFIX + "io-impl, credentials and any other catalog property. The hadoop catalog commits "
              + "by rename and is refused on s3:// roots; the hive catalog (uri thrift://host:9083) needs io-impl there."),
      new PrefixOption(PAIMON_CATALOG_PREFIX, GROUP,
          "With table.format=paimon: every " + PAIMON_CATALOG_PREFIX + "<key>=<value> is an option, without the prefix, "
              + "of the Paimon catalog the tables are in: " + PAIMON_CATALOG_PREFIX + "warehouse (default: table.root), "
              + PAIMON_CATALOG_PREFIX + "metastore=filesystem|hive (default filesystem; hive registers the tables in a Hive "
              + "Metastore, with " + PAIMON_CATALOG_PREFIX + "uri=thrift://host:9083 and a warehouse on local disk or HDFS), "
              + "file IO and any other catalog option. With "
              + "table.format=paimon the " + TABLE_PROPERTIES_PREFIX + "* properties are Paimon table options (bucket, "
              + "deletion-vectors.enabled, file.format, snapshot.num-retained.min, ...)."),
      new PrefixOption(TransactionOptions.KAFKA_PREFIX, TransactionOptions.GROUP,
          "Every " + TransactionOptions.KAFKA_PREFIX + "<key>=<value> is a setting, without the prefix, of the consumer each "
              + "task owns to read Debezium's transaction topic (docs/transactions.md), e.g. "
              + TransactionOptions.KAFKA_PREFIX + "bootstrap.servers (Connect does not give tasks the worker's), security "
              + "settings. The consumer is assigned the topic's partitions and joins no group."));

  private PassThroughOptions() {}
}
