package io.mergesink.connect.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer partition assignor that gives every partition of a topic to one member, the topics dealt
 * round robin over the members in name order: a sink's tasks then each hold whole topics, as consistent
 * cuts need when a table's topic has several partitions (docs/transactions.md, "What cuts do not
 * cover"). Set on a sink as {@code consumer.override.partition.assignment.strategy}.
 */
public final class WholeTopicAssignor implements ConsumerPartitionAssignor {
  @Override
  public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
    Map<String, Subscription> subscriptions = groupSubscription.groupSubscription();
    List<String> members = new ArrayList<>(new TreeSet<>(subscriptions.keySet()));
    Map<String, List<TopicPartition>> assigned = new HashMap<>();
    members.forEach(member -> assigned.put(member, new ArrayList<>()));
    TreeSet<String> topics = new TreeSet<>();
    subscriptions.values().forEach(subscription -> topics.addAll(subscription.topics()));
    int next = 0;
    for (String topic : topics) {
      Integer partitions = metadata.partitionCountForTopic(topic);
      List<String> subscribed = members.stream().filter(member -> subscriptions.get(member).topics().contains(topic)).toList();
      if (partitions == null || subscribed.isEmpty()) {
        continue;
      }
      String member = subscribed.get(next++ % subscribed.size());
      for (int partition = 0; partition < partitions; partition++) {
        assigned.get(member).add(new TopicPartition(topic, partition));
      }
    }
    Map<String, Assignment> assignments = new HashMap<>();
    assigned.forEach((member, partitions) -> assignments.put(member, new Assignment(partitions)));
    return new GroupAssignment(assignments);
  }

  @Override
  public String name() {
    return "whole-topic";
  }
}
