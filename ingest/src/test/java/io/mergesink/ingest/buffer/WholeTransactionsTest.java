package io.mergesink.ingest.buffer;

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
import io.mergesink.ingest.transaction.TransactionEnds;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WholeTransactionsTest {
  private static final String TOPIC = "pg.public.accounts";
  private static final SourceInfo ACCOUNTS = new SourceInfo("bank", "public", "accounts");
  private static final StructType KEY = StructType.of(new StructField("id", PrimitiveType.LONG, false));
  private static final StructType VALUE = StructType.of(new StructField("id", PrimitiveType.LONG, false),
      new StructField("balance", PrimitiveType.LONG, true));

  /** The ends read so far, as the transaction topic's reader keeps them. */
  private final Map<String, TransactionEvent> ends = new HashMap<>();
  private final TransactionEnds known = id -> Optional.ofNullable(ends.get(id));

  private static ChangeEvent change(long offset, long id, long balance, String transaction, long order) {
    return new ChangeEvent(Op.UPSERT, Row.of(id), KEY, Row.of(id, balance), VALUE, ACCOUNTS, 0, TOPIC, TOPIC, 0, offset, "u")
        .inTransaction(transaction == null ? null : new SourceTransaction(transaction, order, order));
  }

  private PartitionBuffer buffer(long maxChanges) {
    return PartitionBuffer.wholeTransactions(TOPIC, 0, PendingChanges::coalescedByKey, new BufferLimits(maxChanges, 1L << 30), known);
  }

  private void ended(String transaction, long accountsEvents) {
    ends.put(transaction, new TransactionEvent(Status.END, transaction, accountsEvents + 1,
        Map.of("public.accounts", accountsEvents, "public.transfers", 1L)));
  }

  private static List<Long> offsets(PartitionBuffer buffer) {
    return buffer.pending().stream().flatMap(changes -> changes.changes().stream()).map(ChangeEvent::offset).toList();
  }

  @Test
  void aTransactionStaysOpenUntilItsEndCountsAllItsEventsOfTheTable() {
    PartitionBuffer buffer = buffer(1_000);
    buffer.add("accounts", change(10, 1, 90, "t1", 1));
    buffer.add("accounts", change(11, 2, 110, "t1", 2));
    assertThat(buffer.seal()).isZero();
    assertThat(buffer.pending()).isEmpty();
    assertThat(buffer.sealedThrough()).hasValue(9);
    assertThat(buffer.openTransactions()).isEqualTo(1);

    ended("t1", 3); // a third change of accounts is still on its way
    buffer.seal();
    assertThat(buffer.pending()).isEmpty();

    buffer.pass(change(12, 3, 0, "t1", 3)); // one its table holds already (a replay) counts all the same
    buffer.seal();
    assertThat(offsets(buffer)).containsExactly(10L, 11L);
    assertThat(buffer.sealedThrough()).isEmpty();
    assertThat(buffer.openTransactions()).isZero();
    assertThat(buffer.pending().get(0).transactionPieces()).isEmpty();
  }

  @Test
  void aChangeDebeziumSentAgainDoesNotCompleteItsTransaction() {
    PartitionBuffer buffer = buffer(1_000);
    ended("t1", 2);
    buffer.add("accounts", change(10, 1, 90, "t1", 1));
    buffer.add("accounts", change(11, 1, 90, "t1", 1)); // its task restarted and sent the first change again
    buffer.seal();
    assertThat(buffer.pending()).as("t1's second change of accounts is not read").isEmpty();

    buffer.add("accounts", change(12, 2, 110, "t1", 2));
    buffer.seal();
    assertThat(offsets(buffer)).containsExactlyInAnyOrder(11L, 12L);
  }

  @Test
  void theFirstEventOfALaterTransactionCompletesTheOneBeforeIt() {
    PartitionBuffer buffer = buffer(1_000);
    buffer.add("accounts", change(10, 1, 90, "t1", 1));
    buffer.add("accounts", change(11, 2, 110, "t1", 2));
    buffer.add("accounts", change(12, 1, 80, "t2", 1));

    assertThat(offsets(buffer)).containsExactly(10L, 11L);
    assertThat(buffer.sealedThrough()).hasValue(11);
  }

  @Test
  void changesOutsideTransactionsAreSealedAtOnceUnlessATransactionIsOpenBeforeThem() {
    PartitionBuffer buffer = buffer(1_000);
    buffer.add("accounts", change(10, 1, 90, null, 0));
    assertThat(offsets(buffer)).containsExactly(10L);
    assertThat(buffer.sealedThrough()).isEmpty();

    buffer.add("accounts", change(11, 2, 110, "t1", 1));
    buffer.add("accounts", change(12, 3, 10, null, 0));
    assertThat(offsets(buffer)).containsExactly(10L);
    assertThat(buffer.sealedThrough()).hasValue(10);

    ended("t1", 1);
    buffer.seal();
    assertThat(offsets(buffer)).containsExactly(10L, 11L, 12L);
  }

  @Test
  void aTransactionLargerThanTheBufferLandsInPiecesThatNameIt() {
    PartitionBuffer buffer = buffer(3);
    for (long offset = 0; offset < 3; offset++) {
      buffer.add("accounts", change(offset, offset, offset, "big", offset + 1));
    }
    assertThat(buffer.isFull()).isTrue();
    assertThat(buffer.seal()).isEqualTo(1);
    assertThat(offsets(buffer)).containsExactly(0L, 1L, 2L);
    assertThat(buffer.pending().get(0).transactionPieces()).containsExactly("big");
    assertThat(buffer.sealedThrough()).isEmpty();
    buffer.committed("accounts");

    // its rest lands as a piece too, and the next transaction is whole again
    buffer.add("accounts", change(3, 3, 3, "big", 4));
    buffer.add("accounts", change(4, 4, 4, "next", 1));
    assertThat(offsets(buffer)).containsExactly(3L);
    assertThat(buffer.pending().get(0).transactionPieces()).containsExactly("big");
    buffer.committed("accounts");

    ended("next", 1);
    assertThat(buffer.seal()).isZero();
    assertThat(offsets(buffer)).containsExactly(4L);
    assertThat(buffer.pending().get(0).transactionPieces()).isEqualTo(Set.of());
  }

  @Test
  void withCutsATransactionWithinTheCutIsSealedThoughItsOtherEventsOfTheTableAreInAnotherPartition() {
    Set<String> withinCut = new HashSet<>();
    TransactionEnds cuts = new TransactionEnds() {
      @Override
      public Optional<TransactionEvent> end(String id) {
        return known.end(id);
      }

      @Override
      public boolean withinCut(String id) {
        return withinCut.contains(id);
      }

      @Override
      public boolean holdsPastCut() {
        return true;
      }
    };
    PartitionBuffer buffer = PartitionBuffer.wholeTransactions(TOPIC, 0, PendingChanges::coalescedByKey,
        new BufferLimits(1_000, 1L << 30), cuts);
    buffer.add("accounts", change(10, 1, 90, "t1", 1)); // its other change of accounts is in partition 1 of the topic
    ended("t1", 2);
    buffer.seal();
    assertThat(buffer.pending()).as("past the cut").isEmpty();

    withinCut.add("t1"); // the task read both changes: the cut moved past it
    buffer.seal();
    assertThat(offsets(buffer)).containsExactly(10L);
    assertThat(buffer.sealedThrough()).isEmpty();
  }

  @Test
  void aPlainBufferIgnoresTransactions() {
    PartitionBuffer buffer = new PartitionBuffer(TOPIC, 0, PendingChanges::coalescedByKey, new BufferLimits(1_000, 1L << 30));
    buffer.add("accounts", change(10, 1, 90, "t1", 1));

    assertThat(offsets(buffer)).containsExactly(10L);
    assertThat(buffer.sealedThrough()).isEqualTo(OptionalLong.empty());
  }
}
