package io.mergesink.bench;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A sink the {@code peers} suite feeds the e2e suite's change stream through: the connector's
 * configuration, the table it starts from, and the check of the table it leaves, so a fast wrong
 * run does not count. Each run has its own topic, connector and table.
 */
interface Peer {
  /** Its name on the command line ({@code --sinks}). */
  String optionName();

  /** What the report calls it: sink, mode and converter. */
  String label();

  /**
   * Before the connector starts: creates the run's table, and for a mixed workload loads every
   * live key of {@code workload} in its current version, as if the sink had written them.
   * Append-only sinks start without rows.
   */
  void prepare(String topic, E2eWorkload workload) throws IOException;

  /** The connector's configuration for a run on {@code topic}. */
  Map<String, String> connectorConfig(String topic, String connector, int tasks);

  /**
   * Whether the table shows what the sink has acknowledged: {@code counts} were produced and the
   * connector's consumer group has committed all of them. True for sinks that commit offsets only
   * after their writes are visible; the Iceberg sink commits its offsets with its data files'
   * announcement, one coordinator commit before the rows are in a snapshot.
   */
  default boolean visible(String topic, StreamCounts counts) throws IOException {
    return true;
  }

  /**
   * Checks the run's final table against the stream: an upsert sink must hold exactly the
   * workload's live keys in their last versions; an append sink one row per record it appends.
   *
   * @return what was checked, for the report (e.g. "500,000 rows = live keys, last versions")
   * @throws IllegalStateException the table is wrong
   */
  String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException;

  /** What every peer's connector configuration starts with: its converters, class, task count and topic. */
  static Map<String, String> baseConfig(RecordFormat format, String connectorClass, int tasks, String topic) {
    Map<String, String> config = new HashMap<>(format.connectorConfig());
    config.put("connector.class", connectorClass);
    config.put("tasks.max", Integer.toString(tasks));
    config.put("topics", topic);
    return config;
  }

  /** A table name for {@code topic} that SQL and Iceberg take unquoted. */
  static String tableName(String topic) {
    return topic.replace('-', '_');
  }

  /**
   * What was produced to a run's topic, priming included.
   *
   * @param changeEvents change events (inserts, updates, deletes)
   * @param tombstones the tombstones that follow deletes
   */
  record StreamCounts(long changeEvents, long tombstones) {}
}
