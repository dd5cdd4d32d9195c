package io.mergesink.ingest.position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The exactly-once rule as bookkeeping: recovery, replays, anchors, compare-and-set expectations, rewinds. */
class PartitionPositionsTest {
  private static final KafkaPartition P0 = new KafkaPartition("orders", 0);
  private static final KafkaPartition P1 = new KafkaPartition("orders", 1);

  private final PartitionPositions positions = new PartitionPositions(new TxnAppIds("sink"));

  @Test
  void aPartitionResumesAfterTheLowestVersionOfItsTablesAndEachTableSkipsWhatItHolds() {
    assertThat(positions.open(P0, Map.of("a", 150L, "b", 100L))).hasValue(101);

    assertThat(positions.accepts(P0, 101)).as("before the consumer went back there").isFalse();
    positions.seeksApplied();
    assertThat(positions.accepts(P0, 100)).isFalse();
    assertThat(positions.accepts(P0, 101)).isTrue();
    assertThat(positions.isReplay(P0, "a", 150)).isTrue();
    assertThat(positions.isReplay(P0, "a", 151)).isFalse();
    assertThat(positions.isReplay(P0, "b", 101)).isFalse();
    assertThat(positions.isReplay(P0, "c", 1)).as("a table without a version of the partition").isFalse();
    assertThat(positions.committedOffsets()).containsEntry(P0, 101L);
  }

  @Test
  void aPartitionNoTableHoldsStartsWhereTheConsumerIsAndRecordsItsFirstVersion() {
    assertThat(positions.open(P0, Map.of())).isEmpty();
    processed(P0, 40, 43);

    FlushPlan plan = positions.plan(Map.of(P0, Set.of("a")));

    assertThat(plan.anchors()).isEmpty();
    assertThat(plan.commits()).containsExactly(new TableTxns("a", Map.of(P0, TxnChange.first(43))));
    assertThat(plan.flushedTo()).containsEntry(P0, 43L);
  }

  @Test
  void aPartitionFeedingASecondTableIsAnchoredThereAtItsCommittedPositionFirst() {
    positions.open(P0, Map.of("a", 100L));
    positions.seeksApplied();
    processed(P0, 101, 110);

    FlushPlan plan = positions.plan(Map.of(P0, Set.of("b")));

    assertThat(plan.anchors()).containsExactly(new TableTxns("b", Map.of(P0, TxnChange.first(100))));
    assertThat(plan.commits()).containsExactlyInAnyOrder(
        new TableTxns("b", Map.of(P0, TxnChange.from(100, 110))),
        new TableTxns("a", Map.of(P0, TxnChange.from(100, 110))));
  }

  @Test
  void aFreshPartitionFeedingTwoTablesIsAnchoredBeforeItsFirstRecord() {
    positions.open(P0, Map.of());
    processed(P0, 40, 45);

    FlushPlan plan = positions.plan(Map.of(P0, Set.of("a", "b")));

    assertThat(plan.anchors()).containsExactlyInAnyOrder(new TableTxns("a", Map.of(P0, TxnChange.first(39))),
        new TableTxns("b", Map.of(P0, TxnChange.first(39))));
    assertThat(plan.commits()).extracting(TableTxns::txns).containsOnly(Map.of(P0, TxnChange.from(39, 45)));
  }

  @Test
  void aTableAheadOfItsPartitionTakesNoTxnUntilThePartitionPassesIt() {
    // a crash came after table a's commit and before table b's
    positions.open(P0, Map.of("a", 150L, "b", 100L));
    positions.seeksApplied();
    processed(P0, 101, 120);

    FlushPlan early = positions.plan(Map.of(P0, Set.of("b")));
    assertThat(early.anchors()).isEmpty();
    assertThat(early.commits()).containsExactly(new TableTxns("b", Map.of(P0, TxnChange.from(100, 120))));
    land(early);

    processed(P0, 121, 160);
    FlushPlan caughtUp = positions.plan(Map.of(P0, Set.of()));
    assertThat(caughtUp.commits()).containsExactlyInAnyOrder(new TableTxns("a", Map.of(P0, TxnChange.from(150, 160))),
        new TableTxns("b", Map.of(P0, TxnChange.from(120, 160))));
  }

  @Test
  void oneCommitPerTableCarriesEveryPartitionItCovers() {
    positions.open(P0, Map.of("a", 10L));
    positions.open(P1, Map.of());
    positions.seeksApplied();
    processed(P0, 11, 12);
    processed(P1, 0, 5);

    FlushPlan plan = positions.plan(Map.of(P0, Set.of(), P1, Set.of("a")));

    assertThat(plan.commits()).containsExactly(new TableTxns("a", Map.of(P0, TxnChange.from(10, 12), P1, TxnChange.first(5))));
  }

  @Test
  void aFlushedPartitionIsCommittedAndExpectsWhatItWroteNext() {
    positions.open(P0, Map.of());
    processed(P0, 0, 9);
    land(positions.plan(Map.of(P0, Set.of("a"))));

    assertThat(positions.hasUncommitted(P0)).isFalse();
    assertThat(positions.committedOffsets()).containsEntry(P0, 10L);
    processed(P0, 10, 10);
    assertThat(positions.plan(Map.of(P0, Set.of())).commits()).containsExactly(new TableTxns("a", Map.of(P0, TxnChange.from(9, 10))));
  }

  @Test
  void aPartitionWhoseCommitDidNotLandIsNotFlushed() {
    positions.open(P0, Map.of());
    processed(P0, 0, 9);
    positions.plan(Map.of(P0, Set.of("a")));

    assertThat(positions.hasUncommitted(P0)).isTrue();
    assertThat(positions.committedOffsets()).doesNotContainKey(P0);
    assertThat(positions.plan(Map.of(P0, Set.of("a"))).commits()).containsExactly(new TableTxns("a", Map.of(P0, TxnChange.first(9))));
  }

  @Test
  void aRewoundPartitionForgetsWhatItReadAndWaitsForTheConsumer() {
    positions.open(P0, Map.of("a", 10L));
    positions.seeksApplied();
    processed(P0, 11, 30);

    assertThat(positions.rewind(P0, Map.of("a", 25L))).hasValue(26);
    assertThat(positions.accepts(P0, 31)).as("records polled before the seek").isFalse();
    assertThat(positions.hasUncommitted(P0)).isFalse();
    positions.seeksApplied();
    assertThat(positions.accepts(P0, 26)).isTrue();
    assertThat(positions.partitionOf("sink:orders:0")).contains(P0);
  }

  @Test
  void offsetsOfAPartitionMustIncrease() {
    positions.open(P0, Map.of());
    positions.processed(P0, 5);
    assertThatThrownBy(() -> positions.processed(P0, 5)).hasMessage("offset 5 of orders-0 is not after the last processed offset 5");
    assertThatThrownBy(() -> positions.processed(P1, 0)).hasMessageContaining("orders-1 is not held");
  }

  @Test
  void aPartitionWithAnOpenSourceTransactionCommitsUpToItsCutAndResumesThere() {
    positions.open(P0, Map.of("a", 100L));
    positions.seeksApplied();
    processed(P0, 101, 110);

    FlushPlan plan = positions.plan(Map.of(P0, Set.of("a")), Set.of(), Map.of(P0, 105L));
    assertThat(plan.commits()).containsExactly(new TableTxns("a", Map.of(P0, TxnChange.from(100, 105))));
    assertThat(plan.flushedTo()).containsEntry(P0, 105L);
    land(plan);
    positions.flushed(P0, 105);
    assertThat(positions.committedOffsets()).containsEntry(P0, 106L);
    assertThat(positions.hasUncommitted(P0)).as("the open transaction is still to commit").isTrue();

    FlushPlan nothingSealed = positions.plan(Map.of(P0, Set.of()), Set.of(), Map.of(P0, 105L));
    assertThat(nothingSealed.commits()).isEmpty();
    assertThat(nothingSealed.flushedTo()).isEmpty();
  }

  private void processed(KafkaPartition partition, long from, long to) {
    for (long offset = from; offset <= to; offset++) {
      assertThat(positions.accepts(partition, offset)).isTrue();
      positions.processed(partition, offset);
    }
  }

  /** Every anchor and commit of {@code plan} landed. */
  private void land(FlushPlan plan) {
    for (TableTxns commit : plan.anchors()) {
      positions.landed(commit.table(), commit.txns());
    }
    for (TableTxns commit : plan.commits()) {
      positions.landed(commit.table(), commit.txns());
    }
    plan.flushedTo().forEach(positions::flushed);
  }
}
