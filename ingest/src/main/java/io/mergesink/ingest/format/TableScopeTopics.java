package io.mergesink.ingest.format;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The table property naming the topics that gained partitions, whose keys may be in the rows of any
 * of their partitions (docs/design.md, "Topics that grow"): the engine writes it, the table kinds
 * decide under it, and a format's writer widens its key lookup by it.
 */
public final class TableScopeTopics {
  /** Table property: comma-separated topics that gained partitions. */
  public static final String PROPERTY = "mergesink.lookup.tableScopeTopics";
  private static final String SEPARATOR = ",";

  private TableScopeTopics() {}

  /** The topics a table with {@code properties} lists in {@value #PROPERTY}. */
  public static Set<String> of(Map<String, String> properties) {
    return Arrays.stream(properties.getOrDefault(PROPERTY, "").split(SEPARATOR)).map(String::trim)
        .filter(topic -> !topic.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
  }

  /** {@code properties} with {@code topic} added to {@value #PROPERTY}. */
  public static Map<String, String> with(Map<String, String> properties, String topic) {
    Set<String> topics = of(properties);
    if (!topics.add(topic)) {
      return properties;
    }
    Map<String, String> changed = new TreeMap<>(properties);
    changed.put(PROPERTY, String.join(SEPARATOR, topics));
    return changed;
  }
}
