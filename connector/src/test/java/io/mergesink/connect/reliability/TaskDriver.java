package io.mergesink.connect.reliability;

import io.mergesink.connect.MergeSinkTask;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One sink task as a Connect worker runs it, without Connect: a real {@link MergeSinkTask} fed from a {@link RecordLog} by a consumer loop that does
 * what {@code WorkerSinkTask} does: applies the task's seeks before each poll, redelivers a batch
 * after a {@link RetriableException}, and stores the offsets {@code preCommit} returns in the
 * consumer group.
 *
 * <p>A crash is modelled by dropping the driver without {@link #stop()}: nothing more runs.
 */
final class TaskDriver {
  private final String name;
  private final RecordLog log;
  private final Map<TopicPartition, Long> group;
  private final TestTaskContext context;
  private final MergeSinkTask task = new MergeSinkTask();
  private final Map<TopicPartition, Long> positions = new LinkedHashMap<>();
  private final boolean pipelined;
  private int retriableFailures;

  /**
   * @param group the consumer group's committed offsets, shared by the group's tasks
   */
  TaskDriver(String taskName, Map<String, String> config, RecordLog log, Map<TopicPartition, Long> group) {
    this.name = taskName;
    this.log = log;
    this.group = group;
    this.context = new TestTaskContext(config, taskName, "all".equals(config.get("errors.tolerance")));
    this.pipelined = Boolean.parseBoolean(config.get("flush.pipelined"));
    task.initialize(context);
    task.start(config);
  }

  /** Connect assigned {@code partitions}: the consumer starts at the group's offsets, the task may seek. */
  void open(Collection<TopicPartition> partitions) {
    assignWithoutOpen(partitions);
    openAssigned(partitions);
  }

  /**
   * The consumer got {@code partitions} but Connect has not called {@code open} yet: polls deliver
   * their records from the group's offsets all the same (the rebalance race of KIP-848's protocol).
   */
  void assignWithoutOpen(Collection<TopicPartition> partitions) {
    context.assign(partitions);
    for (TopicPartition partition : partitions) {
      positions.put(partition, group.getOrDefault(partition, 0L));
    }
  }

  /** Connect calls {@code open} for partitions the consumer already has. */
  void openAssigned(Collection<TopicPartition> partitions) {
    task.open(partitions);
  }

  /** Connect revokes {@code partitions}: offsets are committed, then the task closes them. */
  void close(Collection<TopicPartition> partitions) {
    preCommit();
    task.close(partitions);
    context.unassign(partitions);
    partitions.forEach(positions::remove);
  }

  /**
   * One poll and {@code put} of up to {@code maxPerPartition} records of each assigned partition.
   * A {@link RetriableException} leaves the positions where they were, so the same records come
   * again (Connect redelivers the batch).
   *
   * @return the number of records delivered, 0 when the task is caught up or the put was retried
   */
  int poll(int maxPerPartition) {
    applySeeks();
    List<SinkRecord> batch = new ArrayList<>();
    for (Map.Entry<TopicPartition, Long> position : positions.entrySet()) {
      batch.addAll(log.records(position.getKey().partition(), position.getValue(), maxPerPartition));
    }
    try {
      task.put(batch);
    } catch (RetriableException e) {
      retriableFailures++;
      return 0;
    }
    for (SinkRecord record : batch) {
      positions.put(new TopicPartition(record.topic(), record.kafkaPartition()), record.kafkaOffset() + 1);
    }
    return batch.size();
  }

  /** Hands the task the record at {@code offset} of {@code partition}, whatever its assignment. */
  void putFrom(int partition, long offset) {
    task.put(log.records(partition, offset, 1));
  }

  /** Connect's offset commit: {@code preCommit}, then the group stores the returned offsets. */
  void preCommit() {
    for (Map.Entry<TopicPartition, OffsetAndMetadata> offset : task.preCommit(Map.of()).entrySet()) {
      if (positions.containsKey(offset.getKey())) {
        group.put(offset.getKey(), offset.getValue().offset());
      }
    }
  }

  /** Polls and commits until every assigned partition is read to its end and committed, or {@code maxPolls} pass. */
  void runToEnd(int maxPerPartition, int maxPolls) {
    PollBudget budget = new PollBudget(maxPolls);
    for (Step step = pollAndCommit(maxPerPartition); step != Step.DONE; step = pollAndCommit(maxPerPartition)) {
      if (!budget.next(step == Step.WAITING)) {
        throw new AssertionError("task did not catch up in " + maxPolls + " polls: positions " + positions + ", group " + group
            + ", ends " + log.endOffsets() + ", faults " + FaultPlan.fired());
      }
    }
  }

  /** Where a task is after one {@link #pollAndCommit}. */
  enum Step {
    /** Every assigned partition is read to its end and committed. */
    DONE,
    /** Read to its end, with a commit in flight that the offset commit did not wait for ({@code flush.pipelined}). */
    WAITING,
    /** Anything else: records delivered, or a commit that has not landed yet (a failure retried). */
    POLLED
  }

  /** One poll and {@code put} of up to {@code maxPerPartition} records of each assigned partition, then an offset commit. */
  Step pollAndCommit(int maxPerPartition) {
    int delivered = poll(maxPerPartition);
    preCommit();
    if (delivered > 0 || !caughtUp()) {
      return Step.POLLED;
    }
    if (committed()) {
      return Step.DONE;
    }
    return pipelined ? Step.WAITING : Step.POLLED;
  }

  /** Whether every assigned partition was read to its end. */
  boolean caughtUp() {
    applySeeks();
    return positions.entrySet().stream().allMatch(p -> p.getValue() == log.endOffset(p.getKey().partition()));
  }

  /** Whether the group holds the end offset of every assigned partition. */
  boolean committed() {
    return positions.keySet().stream().allMatch(p -> group.getOrDefault(p, 0L) == log.endOffset(p.partition()));
  }

  Set<TopicPartition> assignment() {
    return context.assignment();
  }

  int retriableFailures() {
    return retriableFailures;
  }

  TestTaskContext context() {
    return context;
  }

  /** A clean shutdown: partitions closed (committing what is buffered), then the task stopped. */
  void stop() {
    close(List.copyOf(positions.keySet()));
    task.stop();
    context.close();
  }

  @Override
  public String toString() {
    return name + " " + positions.keySet();
  }

  private void applySeeks() {
    context.takeSeeks().forEach((partition, offset) -> {
      if (positions.containsKey(partition)) {
        positions.put(partition, offset);
      }
    });
  }
}
