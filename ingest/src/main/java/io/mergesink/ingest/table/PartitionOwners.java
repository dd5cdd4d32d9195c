package io.mergesink.ingest.table;

import io.mergesink.core.log.Metadata;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The connector's file owners: its Kafka partitions, named {@code topic:partition}, and the files a
 * task's key index covers (docs/design.md, "File ownership", "Topics that grow"). With
 * {@code lookup.scope=partition} those are the files of the task's partitions, and for every topic
 * the table lists in {@value #TABLE_SCOPE_TOPICS} (its keys may be in any partition) the files of
 * all of that topic's partitions.
 */
public final class PartitionOwners {
  /** Table property: comma-separated topics that gained partitions, whose keys may be in the files of any of their partitions. */
  static final String TABLE_SCOPE_TOPICS = "mergesink.lookup.tableScopeTopics";
  private static final String SEPARATOR = ",";
  /** Topic names cannot contain ':', so the last one ends the topic. */
  private static final char PARTITION_SEPARATOR = ':';

  private PartitionOwners() {}

  /** The owners of the rows of {@code partitions}. */
  public static FileOwners of(Collection<KafkaPartition> partitions) {
    return FileOwners.of(partitions.stream().map(p -> p.topic() + PARTITION_SEPARATOR + p.partition()).toList());
  }

  /** The key-index scope of a task whose rows are owned by {@code owners}, computed for each snapshot. */
  public static OwnerScope scope(FileOwners owners, LookupScope lookup) {
    if (lookup == LookupScope.TABLE) {
      return OwnerScope.EVERY_FILE;
    }
    return snapshot -> {
      Set<String> anyPartition = tableScopeTopics(snapshot.metadata());
      return anyPartition.isEmpty() ? owners::contains : name -> owners.contains(name) || anyPartition.contains(topicOf(name));
    };
  }

  /** The topics the table lists in {@value #TABLE_SCOPE_TOPICS}. */
  static Set<String> tableScopeTopics(Metadata metadata) {
    return tableScopeTopics(metadata.configuration());
  }

  /** {@code configuration} with {@code topic} added to {@value #TABLE_SCOPE_TOPICS}. */
  static Map<String, String> withTableScopeTopic(Map<String, String> configuration, String topic) {
    Set<String> topics = tableScopeTopics(configuration);
    if (!topics.add(topic)) {
      return configuration;
    }
    Map<String, String> changed = new TreeMap<>(configuration);
    changed.put(TABLE_SCOPE_TOPICS, String.join(SEPARATOR, topics));
    return changed;
  }

  private static Set<String> tableScopeTopics(Map<String, String> configuration) {
    return Arrays.stream(configuration.getOrDefault(TABLE_SCOPE_TOPICS, "").split(SEPARATOR)).map(String::trim)
        .filter(topic -> !topic.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
  }

  private static String topicOf(String owner) {
    int separator = owner.lastIndexOf(PARTITION_SEPARATOR);
    return separator < 0 ? owner : owner.substring(0, separator);
  }
}
