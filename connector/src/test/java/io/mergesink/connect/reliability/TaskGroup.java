package io.mergesink.connect.reliability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The tasks of one connector ({@code tasks.max} {@link TaskDriver}s) and their consumer group: a
 * set of tasks shares the topic's partitions, and a rebalance ends the set and starts another,
 * either gracefully (each task closes its partitions, committing what it holds, and stops) or
 * abruptly (the worker died: the tasks are dropped, nothing more of them runs).
 */
final class TaskGroup {
  private final Map<String, String> config;
  private final RecordLog log;
  private final Map<TopicPartition, Long> offsets = new HashMap<>();
  private final List<TaskDriver> tasks = new ArrayList<>();
  private int started;

  TaskGroup(Map<String, String> config, RecordLog log) {
    this.config = Map.copyOf(config);
    this.log = log;
  }

  List<TaskDriver> tasks() {
    return List.copyOf(tasks);
  }

  /**
   * {@code count} new tasks share the topic's partitions in ranges, as Kafka's {@code RangeAssignor}
   * (the first of Connect's default assignors) gives them: with 6 partitions and 2 tasks, 0-2 and 3-5.
   */
  void start(int count) {
    List<TopicPartition> partitions = log.topicPartitions();
    int each = partitions.size() / count;
    int withOneMore = partitions.size() % count;
    int next = 0;
    for (int i = 0; i < count; i++) {
      int size = each + (i < withOneMore ? 1 : 0);
      startTask(List.copyOf(partitions.subList(next, next + size)));
      next += size;
    }
  }

  /** {@code count} new tasks, each partition given to a random one of them (some may get none). */
  void start(int count, Random random) {
    List<List<TopicPartition>> assignment = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      assignment.add(new ArrayList<>());
    }
    for (TopicPartition partition : log.topicPartitions()) {
      assignment.get(random.nextInt(count)).add(partition);
    }
    assignment.forEach(this::startTask);
  }

  /** Starts one more task owning {@code partitions} (a successor, possibly while their old owner still runs). */
  TaskDriver startTask(Collection<TopicPartition> partitions) {
    TaskDriver task = new TaskDriver("task-" + started++, config, log, offsets);
    task.open(partitions);
    tasks.add(task);
    return task;
  }

  /** A graceful rebalance to {@code count} tasks. */
  void rebalance(int count) {
    stopAll();
    start(count);
  }

  /** Every task closes its partitions (committing what it holds) and stops. */
  void stopAll() {
    tasks.forEach(TaskDriver::stop);
    tasks.clear();
  }

  /** The worker running every task died: the tasks are gone without any cleanup. */
  void killAll() {
    tasks.clear();
  }

  /** One task died; Connect gives its partitions to a new task. */
  TaskDriver kill(TaskDriver task) {
    if (!tasks.remove(task)) {
      throw new IllegalArgumentException(task + " is not a task of this group");
    }
    return startTask(task.assignment());
  }

  /** A random task died; Connect gives its partitions to a new task. */
  void killOne(Random random) {
    kill(tasks.get(random.nextInt(tasks.size())));
  }

  /** One poll of every task, {@code maxPerPartition} records of each of its partitions; each commits with chance 1 in {@code commitOdds}. */
  void pollAll(int maxPerPartition, Random random, int commitOdds) {
    for (TaskDriver task : tasks) {
      task.poll(maxPerPartition);
      if (random.nextInt(commitOdds) == 0) {
        task.preCommit();
      }
    }
  }

  /** Every task reads its partitions to the end and commits. */
  void quiesce(int maxPerPartition, int maxPolls) {
    PollBudget budget = new PollBudget(maxPolls);
    while (true) {
      Set<TaskDriver.Step> steps = EnumSet.noneOf(TaskDriver.Step.class);
      for (TaskDriver task : tasks) {
        steps.add(task.pollAndCommit(maxPerPartition));
      }
      if (steps.equals(Set.of(TaskDriver.Step.DONE))) {
        return;
      }
      if (!budget.next(!steps.contains(TaskDriver.Step.POLLED))) {
        throw new AssertionError("tasks did not catch up in " + maxPolls + " polls: ends " + log.endOffsets() + ", group "
            + offsets + "; faults " + FaultPlan.fired());
      }
    }
  }
}
