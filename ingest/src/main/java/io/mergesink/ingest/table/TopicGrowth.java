package io.mergesink.ingest.table;

import io.mergesink.ingest.format.TableScopeTopics;
import io.mergesink.ingest.position.TxnAppIds;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices topics that gained partitions (docs/design.md, "Topics that grow"). A task cannot ask
 * Kafka how many partitions a topic had, but a table knows which partitions of a topic ever
 * committed to it: when a task opens a partition of topic T for a table that holds txns of other
 * partitions of T but none of this one, T has (most likely) grown, and the producer's hashing now
 * sends keys of T to other partitions than before, old keys included. Every writer of the table must
 * then look a key of T up in the files of all of T's partitions, so the decision is written into the
 * table ({@value TableScopeTopics#PROPERTY}), where the tasks that got no new partition
 * find it too: the metadata commit makes them plan again against it.
 *
 * <p>A partition that never committed before (empty until now) looks the same: the table's lookup
 * for its topic widens although no key moved. That only costs index memory, and a topic with an
 * empty partition holds few keys.
 */
public final class TopicGrowth {
  private static final Logger LOG = LoggerFactory.getLogger(TopicGrowth.class);

  private final TxnAppIds appIds;

  public TopicGrowth(TxnAppIds appIds) {
    this.appIds = appIds;
  }

  /** Widens the key lookup of every table in {@code sinks} for the topics {@code opened} shows have grown. */
  public void widenLookups(Collection<TableSink> sinks, Collection<KafkaPartition> opened) throws IOException {
    Map<String, List<KafkaPartition>> byTopic = opened.stream()
        .collect(Collectors.groupingBy(KafkaPartition::topic, LinkedHashMap::new, Collectors.toList()));
    for (TableSink sink : sinks) {
      Set<String> committed = sink.txnAppIds();
      for (Map.Entry<String, List<KafkaPartition>> topic : byTopic.entrySet()) {
        String prefix = appIds.topicPrefix(topic.getKey());
        boolean topicCommitted = committed.stream().anyMatch(appId -> appId.startsWith(prefix));
        List<KafkaPartition> neverCommitted = topic.getValue().stream().filter(p -> !committed.contains(appIds.of(p))).toList();
        if (topicCommitted && !neverCommitted.isEmpty() && sink.lookUpTopicInEveryPartition(topic.getKey())) {
          LOG.warn("Table {} holds positions of topic {} but none of {}: the topic has probably grown, so its keys may have moved "
              + "between partitions; every task now looks up the keys of {} in the files of all its partitions (table property {})",
              sink.name(), topic.getKey(), neverCommitted, topic.getKey(), TableScopeTopics.PROPERTY);
        }
      }
    }
  }
}
