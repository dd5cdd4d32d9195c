package io.mergesink.ingest.cut;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.decode.SourceTransaction;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.decode.TransactionEvent.Status;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CutGateTest {
  private static final KafkaPartition TRANSACTIONS = new KafkaPartition("pg.transaction", 0);
  private static final KafkaPartition ACCOUNTS = new KafkaPartition("pg.public.accounts", 0);
  private static final KafkaPartition SAVINGS = new KafkaPartition("pg.public.savings", 0);
  private static final StructType KEY = StructType.of(new StructField("id", PrimitiveType.LONG, false));

  private static ChangeEvent change(KafkaPartition partition, String table, String transaction, long offset) {
    return change(partition, table, transaction, offset, 1);
  }

  /** A change that is the {@code order}-th of {@code transaction}'s changes of {@code table}. */
  private static ChangeEvent change(KafkaPartition partition, String table, String transaction, long offset, long order) {
    return new ChangeEvent(Op.UPSERT, Row.of(offset), KEY, Row.of(offset), KEY, new SourceInfo("bank", "public", table), 0,
        partition.topic(), partition.topic(), partition.partition(), offset, "u")
        .inTransaction(new SourceTransaction(transaction, order, order));
  }

  private static TransactionEvent end(String id, long timestampMs) {
    return new TransactionEvent(Status.END, id, 2, Map.of("public.accounts", 1L, "public.savings", 1L), timestampMs);
  }

  @Test
  void aTransactionBeforeTheFirstReadOfOnePartitionIsAwaitedInAPartitionThatGaveNothingYet() {
    KafkaPartition first = new KafkaPartition("pg.public.accounts", 0);
    KafkaPartition second = new KafkaPartition("pg.public.accounts", 1);
    CutCandidates candidates = new CutCandidates(1_000);
    Map<String, Long> oneChange = Map.of("public.accounts", 1L);
    candidates.ended(TRANSACTIONS, 1, new TransactionEvent(Status.END, "t1", 1, oneChange, 100));
    candidates.ended(TRANSACTIONS, 3, new TransactionEvent(Status.END, "t2", 1, oneChange, 1_100));
    candidates.ended(TRANSACTIONS, 5, new TransactionEvent(Status.END, "t3", 1, oneChange, 2_100));
    CutGate gate = new CutGate(TransactionEnds.NONE, candidates, partition -> -1);
    gate.opened(List.of(first, second));

    gate.read("accounts", change(first, "accounts", "t2", 40)); // the consumer gave partition 0 first
    assertThat(gate.advance()).as("t1's change may be in partition 1, not read yet").isEqualTo(-1);

    gate.read("accounts", change(second, "accounts", "t1", 30));
    assertThat(gate.advance()).isEqualTo(3);
  }

  @Test
  void aSourceWhosePartitionsTheTaskReleasedHoldsTheCutBackNoLonger() {
    CutCandidates candidates = new CutCandidates(1_000);
    candidates.ended(TRANSACTIONS, 1, end("t1", 100));
    candidates.ended(TRANSACTIONS, 3, end("t2", 1_100));
    candidates.ended(TRANSACTIONS, 5, end("t3", 2_100)); // its later time makes t2 a cut candidate
    CutGate gate = new CutGate(TransactionEnds.NONE, candidates, partition -> -1);
    gate.read("accounts", change(ACCOUNTS, "accounts", "t1", 10));
    gate.read("savings", change(SAVINGS, "savings", "t1", 20));
    gate.read("accounts", change(ACCOUNTS, "accounts", "t2", 11)); // savings moved to another task before t2's change came
    assertThat(gate.advance()).as("t2's change of savings is not read").isEqualTo(1);

    gate.released(List.of(SAVINGS));
    assertThat(gate.advance()).isEqualTo(3);
    assertThat(gate.tags("savings")).isEmpty();
    assertThat(gate.tags("accounts")).containsEntry(CutGate.CUT_TAG, "3");
  }

  @Test
  void aTopicWhosePartitionsTheTaskHoldsInPartIsLeftOutOfCutsInsteadOfHoldingThemBack() {
    KafkaPartition held = new KafkaPartition("pg.public.accounts", 0); // partition 1 is another task's
    CutCandidates candidates = new CutCandidates(1_000);
    // each transaction changed accounts twice, once in each partition of its topic
    Map<String, Long> counts = Map.of("public.accounts", 2L, "public.savings", 1L);
    candidates.ended(TRANSACTIONS, 1, new TransactionEvent(Status.END, "t1", 3, counts, 100));
    candidates.ended(TRANSACTIONS, 3, new TransactionEvent(Status.END, "t2", 3, counts, 1_100));
    candidates.ended(TRANSACTIONS, 5, new TransactionEvent(Status.END, "t3", 3, counts, 2_100));
    Map<String, Integer> partitionCounts = Map.of(held.topic(), 2, SAVINGS.topic(), 1);
    TransactionEnds ends = new TransactionEnds() {
      @Override
      public Optional<TransactionEvent> end(String id) {
        return Optional.empty();
      }

      @Override
      public OptionalInt partitionCount(String topic) {
        return partitionCounts.containsKey(topic) ? OptionalInt.of(partitionCounts.get(topic)) : OptionalInt.empty();
      }
    };
    CutGate unaware = new CutGate(TransactionEnds.NONE, candidates, partition -> -1);
    CutGate gate = new CutGate(ends, candidates, partition -> -1);
    for (CutGate task : List.of(unaware, gate)) {
      task.opened(List.of(held, SAVINGS));
      task.read("accounts", change(held, "accounts", "t1", 10));
      task.read("savings", change(SAVINGS, "savings", "t1", 20));
      task.read("accounts", change(held, "accounts", "t2", 11));
      task.read("savings", change(SAVINGS, "savings", "t2", 21));
    }

    assertThat(unaware.advance()).as("the other partition's change of t1 never comes to this task").isEqualTo(-1);
    assertThat(gate.advance()).isEqualTo(3);
    assertThat(gate.tags("accounts")).as("a commit of accounts may hold part of a transaction").isEmpty();
    assertThat(gate.tags("savings")).containsEntry(CutGate.CUT_TAG, "3");
  }

  @Test
  void aPartitionThatGaveNoTransactionYetHoldsTheCutBackUntilItIsReadToItsEndOffset() {
    CutCandidates candidates = new CutCandidates(1_000);
    candidates.ended(TRANSACTIONS, 1, end("t1", 100));
    candidates.ended(TRANSACTIONS, 3, end("t2", 1_100));
    candidates.ended(TRANSACTIONS, 5, end("t3", 2_100));
    Map<KafkaPartition, Long> processed = new HashMap<>(Map.of(ACCOUNTS, 11L, SAVINGS, 4L));
    TransactionEnds ends = new TransactionEnds() {
      @Override
      public Optional<TransactionEvent> end(String id) {
        return Optional.empty();
      }

      @Override
      public OptionalLong endOffsetAfter(KafkaPartition partition, long endOffset) {
        return partition.equals(SAVINGS) ? OptionalLong.of(20) : OptionalLong.empty(); // savings: a backlog up to offset 19
      }
    };
    CutGate gate = new CutGate(ends, candidates, processed::get);
    gate.opened(List.of(ACCOUNTS, SAVINGS));
    gate.read("accounts", change(ACCOUNTS, "accounts", "t1", 10));
    gate.read("accounts", change(ACCOUNTS, "accounts", "t2", 11));

    assertThat(gate.advance()).as("savings, read up to offset 4 of 19, may hold t1's and t2's changes").isEqualTo(-1);

    processed.put(SAVINGS, 19L); // read to its end: events without transactions (a snapshot)
    assertThat(gate.advance()).isEqualTo(3);
  }

  @Test
  void aChangeDebeziumSentAgainCountsOnceTowardsItsTransaction() {
    CutCandidates candidates = new CutCandidates(1_000);
    Map<String, Long> twoAccounts = Map.of("public.accounts", 2L);
    candidates.ended(TRANSACTIONS, 1, new TransactionEvent(Status.END, "t1", 2, twoAccounts, 100));
    candidates.ended(TRANSACTIONS, 3, new TransactionEvent(Status.END, "t2", 2, twoAccounts, 1_100));
    CutGate gate = new CutGate(TransactionEnds.NONE, candidates, partition -> -1);
    gate.read("accounts", change(ACCOUNTS, "accounts", "t1", 10, 1));
    gate.read("accounts", change(ACCOUNTS, "accounts", "t1", 11, 1)); // its task restarted: the first change again

    assertThat(gate.advance()).as("t1's second change of accounts is not read").isEqualTo(-1);

    gate.read("accounts", change(ACCOUNTS, "accounts", "t1", 12, 2));
    assertThat(gate.advance()).isEqualTo(1);
  }
}
