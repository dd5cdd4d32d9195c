package io.mergesink.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class WholeTopicAssignorTest {
  private static final Node BROKER = new Node(0, "localhost", 9092);

  @Test
  void eachTopicGoesWholeToOneMemberAndMembersHoldAsManyTopicsGiveOrTakeOne() {
    Map<String, Integer> topics = topics(23);
    Map<String, Assignment> assignment = new Group(topics, "task-0", "task-1", "task-2").rebalance();

    assertWholeTopicsOnce(topics, assignment);
    IntSummaryStatistics held = assignment.values().stream().mapToInt(a -> topicsOf(a).size()).summaryStatistics();
    assertThat(held.getMax() - held.getMin()).isLessThanOrEqualTo(1);
  }

  @Test
  void aMemberJoiningTakesTopicsFromTheOthersAndNoTopicMovesBetweenTheOthers() {
    Map<String, Integer> topics = topics(30);
    Group group = new Group(topics, "task-0", "task-1");
    Map<String, Assignment> before = group.rebalance();

    group.join("task-2");
    Map<String, Assignment> after = group.rebalance();

    assertWholeTopicsOnce(topics, after);
    assertThat(after.values()).allSatisfy(assignment -> assertThat(topicsOf(assignment)).hasSize(10));
    for (String stayed : List.of("task-0", "task-1")) {
      assertThat(topicsOf(before.get(stayed))).containsAll(topicsOf(after.get(stayed)));
    }
  }

  @Test
  void aMemberLeavingHandsOnlyItsTopicsOn() {
    Map<String, Integer> topics = topics(12);
    Group group = new Group(topics, "task-0", "task-1", "task-2");
    Map<String, Assignment> before = group.rebalance();

    group.leave("task-1");
    Map<String, Assignment> after = group.rebalance();

    assertWholeTopicsOnce(topics, after);
    for (String stayed : List.of("task-0", "task-2")) {
      assertThat(topicsOf(after.get(stayed))).containsAll(topicsOf(before.get(stayed))).hasSize(6);
    }
  }

  @Test
  void topicsTheMetadataDoesNotKnowAreLeftOut() {
    Map<String, Integer> topics = topics(3);
    Group group = new Group(topics, "task-0", "task-1");
    group.subscribe("not-created-yet");

    Map<String, Assignment> assignment = group.rebalance();

    assertWholeTopicsOnce(topics, assignment);
  }

  private static Map<String, Integer> topics(int count) {
    Map<String, Integer> topics = new TreeMap<>();
    IntStream.range(0, count).forEach(i -> topics.put("db.public.table_" + i, 1 + i % 4));
    return topics;
  }

  private static Set<String> topicsOf(Assignment assignment) {
    Set<String> topics = new HashSet<>();
    assignment.partitions().forEach(partition -> topics.add(partition.topic()));
    return topics;
  }

  /** Every partition of every topic assigned once, and each topic's partitions all to one member. */
  private static void assertWholeTopicsOnce(Map<String, Integer> topics, Map<String, Assignment> assignment) {
    List<TopicPartition> partitions = new ArrayList<>();
    Map<String, Set<String>> holders = new HashMap<>();
    assignment.forEach((member, assigned) -> assigned.partitions().forEach(partition -> {
      partitions.add(partition);
      holders.computeIfAbsent(partition.topic(), topic -> new HashSet<>()).add(member);
    }));
    List<TopicPartition> expected = new ArrayList<>();
    topics.forEach((topic, count) -> IntStream.range(0, count).forEach(p -> expected.add(new TopicPartition(topic, p))));
    assertThat(partitions).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(holders.values()).allSatisfy(members -> assertThat(members).hasSize(1));
  }

  /** Members, each with its own assignor as each consumer has, rebalanced as the group leader does. */
  private static final class Group {
    private final Cluster cluster;
    private final Set<String> subscribed;
    private final Map<String, WholeTopicAssignor> members = new TreeMap<>();

    Group(Map<String, Integer> topics, String... members) {
      List<PartitionInfo> partitions = new ArrayList<>();
      topics.forEach((topic, count) -> IntStream.range(0, count)
          .forEach(p -> partitions.add(new PartitionInfo(topic, p, BROKER, new Node[] {BROKER}, new Node[] {BROKER}))));
      this.cluster = new Cluster("cluster", List.of(BROKER), partitions, Set.of(), Set.of());
      this.subscribed = new HashSet<>(topics.keySet());
      for (String member : members) {
        join(member);
      }
    }

    void join(String member) {
      members.put(member, new WholeTopicAssignor());
    }

    void leave(String member) {
      members.remove(member);
    }

    void subscribe(String topic) {
      subscribed.add(topic);
    }

    Map<String, Assignment> rebalance() {
      Map<String, Subscription> subscriptions = new HashMap<>();
      members.forEach((member, assignor) ->
          subscriptions.put(member, new Subscription(List.copyOf(subscribed), assignor.subscriptionUserData(subscribed))));
      GroupAssignment result = members.values().iterator().next().assign(cluster, new GroupSubscription(subscriptions));
      members.forEach((member, assignor) -> assignor.onAssignment(result.groupAssignment().get(member), null));
      return result.groupAssignment();
    }
  }
}
