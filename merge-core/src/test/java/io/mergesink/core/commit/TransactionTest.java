package io.mergesink.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outcomes of a {@link Transaction} on a table on local disk: a conflict plans again against the
 * newer snapshot, a fence stops the run, and the files of every attempt that did not land are
 * deleted while those of the one that landed stay.
 */
class TransactionTest {
  private static final String APP = "app:orders:0";
  private static final StructType SCHEMA = StructType.of(new StructField("id", PrimitiveType.LONG, false));

  @TempDir Path dir;
  private final Storage storage = new LocalStorage();

  @Test
  void aConflictPlansAgainAgainstTheNewerSnapshotAndDeletesTheFilesOfTheInvalidatedPlan() throws Exception {
    DeltaTable table = newTable();
    AtomicInteger races = new AtomicInteger();
    CommitHook propertyChangeFirst = (root, version) -> {
      if (races.getAndIncrement() == 0) {
        table.changeConfiguration(configuration -> with(configuration, "owner", "other"));
      }
    };
    AttemptFiles planner = new AttemptFiles(table.root());

    Transaction.Outcome<Integer> outcome = transaction(propertyChangeFirst, 5).run(table.snapshot(), planner);

    assertThat(outcome).isInstanceOf(Transaction.Committed.class);
    Transaction.Committed<Integer> committed = (Transaction.Committed<Integer>) outcome;
    assertThat(committed.replans()).isEqualTo(1);
    assertThat(committed.value()).isEqualTo(2);
    assertThat(committed.version()).isEqualTo(2);
    assertThat(planner.plannedAt).as("the second plan reads the property change").containsExactly(0L, 1L);
    assertThat(planner.invalidatedAt).containsExactly(1L);
    assertThat(planner.reasons.get(0)).contains("metadata");
    assertThat(Files.exists(planner.file(1))).as("the invalidated plan's file").isFalse();
    assertThat(Files.exists(planner.file(2))).as("the committed plan's file").isTrue();
    assertThat(table.snapshot().version()).isEqualTo(2);
  }

  @Test
  void aFencedPlanStopsTheRunPublishesNothingAndDeletesItsFiles() throws Exception {
    DeltaTable table = newTable();
    Transaction.Outcome<Integer> first = transaction(CommitHook.NONE, 5).run(table.snapshot(),
        new AttemptFiles(table.root(), Map.of(APP, TxnChange.first(9))));
    assertThat(first).isInstanceOf(Transaction.Committed.class);
    AttemptFiles zombie = new AttemptFiles(table.root() + "/zombie", Map.of(APP, TxnChange.from(5, 12)));

    Transaction.Outcome<Integer> outcome = transaction(CommitHook.NONE, 5).run(table.snapshot(), zombie);

    assertThat(outcome).isInstanceOf(Transaction.Fenced.class);
    assertThat(((Transaction.Fenced<Integer>) outcome).exception()).hasMessageContaining(APP).hasMessageContaining("at version 9");
    assertThat(zombie.plannedAt).as("a fenced run plans no more").hasSize(1);
    assertThat(Files.exists(zombie.file(1))).isFalse();
    assertThat(table.snapshot().version()).isEqualTo(1);
    assertThat(table.snapshot().txnVersion(APP)).hasValue(9);
  }

  @Test
  void aRunThatLosesEveryPlanGivesUpAndLeavesNoFile() throws Exception {
    DeltaTable table = newTable();
    AtomicInteger races = new AtomicInteger();
    CommitHook propertyChangeFirst = (root, version) ->
        table.changeConfiguration(configuration -> with(configuration, "race", Integer.toString(races.incrementAndGet())));
    AttemptFiles planner = new AttemptFiles(table.root());

    Transaction.Outcome<Integer> outcome = transaction(propertyChangeFirst, 3).run(table.snapshot(), planner);

    assertThat(outcome).isInstanceOf(Transaction.GaveUp.class);
    Transaction.GaveUp<Integer> gaveUp = (Transaction.GaveUp<Integer>) outcome;
    assertThat(gaveUp.plans()).isEqualTo(3);
    assertThat(gaveUp.latest().version()).isEqualTo(3);
    assertThat(gaveUp.reason()).contains("metadata");
    for (int attempt = 1; attempt <= 3; attempt++) {
      assertThat(Files.exists(planner.file(attempt))).as("file of attempt %s", attempt).isFalse();
    }
    assertThat(table.snapshot().version()).as("only the concurrent property changes landed").isEqualTo(3);
  }

  @Test
  void aPlannerWithNothingToCommitPublishesNothing() throws Exception {
    DeltaTable table = newTable();

    Transaction.Unfenced<Integer> outcome = transaction(CommitHook.NONE, 5).runWithoutTxns(table.snapshot(), snapshot -> Optional.empty());

    assertThat(outcome).isInstanceOf(Transaction.Unchanged.class);
    assertThat(((Transaction.Unchanged<Integer>) outcome).snapshot().version()).isZero();
    assertThat(table.snapshot().version()).isZero();
  }

  @Test
  void aRunWithoutTxnsRefusesAPlanThatNamesTxns() throws Exception {
    DeltaTable table = newTable();
    AttemptFiles planner = new AttemptFiles(table.root(), Map.of(APP, TxnChange.first(1)));

    assertThatThrownBy(() -> transaction(CommitHook.NONE, 5).runWithoutTxns(table.snapshot(), planner))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(APP);
    assertThat(table.snapshot().version()).isZero();
  }

  private Transaction transaction(CommitHook hook, int maxPlans) {
    return new Transaction(storage, new Committer(storage, new SnapshotLoader(storage), 10, hook), maxPlans);
  }

  private DeltaTable newTable() throws IOException {
    DeltaTable table = DeltaTable.forPath(storage, dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    return table;
  }

  private static Map<String, String> with(Map<String, String> configuration, String key, String value) {
    Map<String, String> next = new HashMap<>(configuration);
    next.put(key, value);
    return next;
  }

  /**
   * Writes one file per plan (in {@code directory}, named by the plan's number), stages a commit
   * that moves {@code txns} and lists the file as written; records what it was told.
   */
  private final class AttemptFiles implements Transaction.Planner<Integer> {
    private final String directory;
    private final Map<String, TxnChange> txns;
    private final List<Long> plannedAt = new ArrayList<>();
    private final List<Long> invalidatedAt = new ArrayList<>();
    private final List<String> reasons = new ArrayList<>();

    AttemptFiles(String directory) {
      this(directory, Map.of());
    }

    AttemptFiles(String directory, Map<String, TxnChange> txns) {
      this.directory = directory;
      this.txns = txns;
    }

    Path file(int attempt) {
      return Path.of(directory, "attempt-" + attempt + ".bin");
    }

    @Override
    public Optional<Transaction.Plan<Integer>> plan(Snapshot snapshot) throws IOException {
      plannedAt.add(snapshot.version());
      int attempt = plannedAt.size();
      Files.createDirectories(Path.of(directory));
      try (OutputStream out = storage.create(file(attempt).toString())) {
        out.write(attempt);
      }
      StagedCommit staged = new StagedCommit(List.of(), Set.of(), List.of(file(attempt).toString()), "WRITE", Map.of());
      return Optional.of(new Transaction.Plan<>(staged, txns, Map.of(), Committer.WinnerCheck.NONE, attempt));
    }

    @Override
    public void invalidated(Snapshot latest, String reason) {
      invalidatedAt.add(latest.version());
      reasons.add(reason);
    }
  }
}
