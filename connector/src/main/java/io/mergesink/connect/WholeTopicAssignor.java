package io.mergesink.connect;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer partition assignor that gives all partitions of a topic to one member, so that each of a
 * sink's tasks holds whole topics: consistent cuts need every event of a source transaction for a
 * table in one task, and Kafka's own assignors (range, round robin, sticky) spread a topic of several
 * partitions over the tasks (docs/transactions.md, "Topics of several partitions"). Set it on the
 * sink as {@code consumer.override.partition.assignment.strategy=io.mergesink.connect.WholeTopicAssignor}
 * (the consumer group protocol {@code classic}, Kafka's default; under {@code group.protocol=consumer}
 * the broker assigns).
 *
 * <p>Members keep the topics they held where the balance allows (each member announces them in its
 * subscription), so a rebalance moves few tables; the other topics go to the member holding the fewest,
 * in name order. Members that subscribe to the same topics (a sink's tasks do) hold as many topics
 * each, give or take one. The protocol is eager: a rebalance revokes every partition before it
 * assigns anew.
 */
public final class WholeTopicAssignor implements ConsumerPartitionAssignor {
  /** The name members agree on; a group whose members name no common assignor fails to form. */
  public static final String NAME = "mergesink-whole-topic";
  private static final char SEPARATOR = '\n';

  /** The topics this member was given last, announced with its next subscription. */
  private volatile Set<String> heldTopics = Set.of();

  @Override
  public ByteBuffer subscriptionUserData(Set<String> topics) {
    List<String> held = heldTopics.stream().filter(topics::contains).sorted().toList();
    return held.isEmpty() ? null : ByteBuffer.wrap(String.join(String.valueOf(SEPARATOR), held).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
    Set<String> topics = new HashSet<>();
    assignment.partitions().forEach(partition -> topics.add(partition.topic()));
    heldTopics = Set.copyOf(topics);
  }

  @Override
  public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
    Map<String, Subscription> subscriptions = groupSubscription.groupSubscription();
    List<String> members = new ArrayList<>(new TreeSet<>(subscriptions.keySet()));
    Map<String, List<String>> topicsOf = new HashMap<>();
    members.forEach(member -> topicsOf.put(member, new ArrayList<>()));
    Map<String, List<String>> subscribers = subscribersOfExistingTopics(metadata, subscriptions, members);

    Set<String> assigned = new HashSet<>();
    Map<List<String>, Share> shares = new HashMap<>();
    for (String member : members) {
      for (String topic : heldBefore(subscriptions.get(member))) {
        List<String> candidates = subscribers.get(topic);
        if (candidates == null || !candidates.contains(member) || assigned.contains(topic)) {
          continue;
        }
        Share share = shares.computeIfAbsent(candidates, group -> Share.of(group, subscribers));
        if (share.mayKeep(topicsOf.get(member).size())) {
          topicsOf.get(member).add(topic);
          assigned.add(topic);
        }
      }
    }
    for (Map.Entry<String, List<String>> topic : subscribers.entrySet()) {
      if (assigned.add(topic.getKey())) {
        String member = topic.getValue().stream().min(Comparator.comparingInt(m -> topicsOf.get(m).size())).orElseThrow();
        topicsOf.get(member).add(topic.getKey());
      }
    }

    Map<String, Assignment> assignments = new HashMap<>();
    topicsOf.forEach((member, topics) -> {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics) {
        for (int partition = 0; partition < metadata.partitionCountForTopic(topic); partition++) {
          partitions.add(new TopicPartition(topic, partition));
        }
      }
      assignments.put(member, new Assignment(partitions));
    });
    return new GroupAssignment(assignments);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Topic → the members subscribed to it, in member order, for the topics the metadata knows, in name order. */
  private static Map<String, List<String>> subscribersOfExistingTopics(Cluster metadata, Map<String, Subscription> subscriptions,
      List<String> members) {
    Map<String, List<String>> subscribers = new TreeMap<>();
    for (String member : members) {
      for (String topic : subscriptions.get(member).topics()) {
        Integer partitions = metadata.partitionCountForTopic(topic);
        if (partitions != null && partitions > 0) {
          subscribers.computeIfAbsent(topic, t -> new ArrayList<>()).add(member);
        }
      }
    }
    return subscribers;
  }

  /**
   * How many topics the members that subscribe to the same topics may keep: {@code floor} each, and
   * {@code floor + 1} for {@code extra} of them, so that no member holds two topics more than another.
   */
  private static final class Share {
    private final int floor;
    private int extra;

    private Share(int floor, int extra) {
      this.floor = floor;
      this.extra = extra;
    }

    static Share of(List<String> members, Map<String, List<String>> subscribers) {
      int topics = (int) subscribers.values().stream().filter(members::equals).count();
      return new Share(topics / members.size(), topics % members.size());
    }

    /** Whether a member holding {@code held} topics may keep one more (counting it when it does). */
    boolean mayKeep(int held) {
      if (held < floor) {
        return true;
      }
      if (held == floor && extra > 0) {
        extra--;
        return true;
      }
      return false;
    }
  }

  /** The topics a member says it held before this rebalance. */
  private static List<String> heldBefore(Subscription subscription) {
    ByteBuffer data = subscription.userData();
    if (data == null || !data.hasRemaining()) {
      return List.of();
    }
    byte[] bytes = new byte[data.remaining()];
    data.duplicate().get(bytes);
    return Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split(String.valueOf(SEPARATOR)));
  }
}
