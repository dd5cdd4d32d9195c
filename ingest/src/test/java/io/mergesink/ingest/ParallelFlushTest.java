package io.mergesink.ingest;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.GatedStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flushes of many tables whose commits run in parallel ({@code flush.commit.threads}), on real Delta
 * tables read back with Delta Kernel, while commits of some tables fail and another task takes a
 * partition over: every change lands once, positions move only with every commit of their partition,
 * and the metrics count each landed commit once, on the engine's thread, with its own requests.
 */
class ParallelFlushTest {
  /** The partitions of the stream, each a topic of its own. */
  private static final int PARTITIONS = 4;
  /** Each partition feeds tables of its own; every fifth record of any partition goes to one of the shared tables. */
  private static final int OWN_TABLES = 4;
  private static final int SHARED_TABLES = 2;
  private static final int RECORDS_PER_ROUND = 20;
  private static final int ROUNDS = 6;
  private static final int TAKEN_OVER = 3;
  private static final int TAKEOVER_ROUND = 2;

  @TempDir Path dir;
  /** The records of each partition as Kafka keeps them: table and key of each offset. */
  private final List<List<Change>> log = new ArrayList<>();
  /** Per table and key, the name of the key's last change in the log. */
  private final Map<String, Map<Long, Row>> model = new HashMap<>();

  private record Change(String table, long id, String name) {}

  @AfterEach
  void openTheGate() {
    GatedStorage.gate(GatedStorage.Gate.OPEN);
  }

  @Test
  void commitsInParallelThatFailOrAreFencedLoseAndDuplicateNothingAndMovePositionsOnlyWhenAllLanded() throws Exception {
    String root = GatedStorage.root(dir);
    Thread engineThread = Thread.currentThread();
    Commits commitsOfA = new Commits();
    Commits commitsOfB = new Commits();
    RequestCounts storageRequestsOfA = RequestCounts.ZERO;
    Random random = new Random(29);
    for (int partition = 0; partition < PARTITIONS; partition++) {
      log.add(new ArrayList<>());
    }
    try (IngestEngine a = engine(root, commitsOfA); IngestEngine b = engine(root, commitsOfB)) {
      List<KafkaPartition> all = new ArrayList<>();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        all.add(partition(partition));
      }
      a.open(all);
      long[] deliveredToA = new long[PARTITIONS];
      long deliveredToB = 0;
      for (int round = 0; round < ROUNDS; round++) {
        grow();
        for (int partition = 0; partition < PARTITIONS; partition++) {
          if (a.holds(partition(partition))) {
            deliveredToA[partition] = deliver(a, partition, deliveredToA[partition]);
          }
        }
        if (round == TAKEOVER_ROUND) {
          deliveredToB = b.open(List.of(partition(TAKEN_OVER))).getOrDefault(partition(TAKEN_OVER), 0L);
          b.seeksApplied();
        }
        if (round >= TAKEOVER_ROUND) {
          deliveredToB = deliver(b, TAKEN_OVER, deliveredToB);
          assertThat(b.flush()).isEqualTo(FlushOutcome.COMPLETE);
        }

        Set<String> failing = failing(random, round);
        GatedStorage.gate((path, content) -> {
          for (String table : failing) {
            if (path.contains("/" + table + "/_delta_log/")) {
              throw new IOException("simulated storage failure of table " + table);
            }
          }
        });
        FlushOutcome outcome = a.flush();
        GatedStorage.gate(GatedStorage.Gate.OPEN);

        boolean takeover = round == TAKEOVER_ROUND;
        if (takeover) {
          // the other task moved every table of the partition: each commit carrying it is fenced, and the shared tables'
          // commits carry every partition (whether a failing table's commit ran or was left out depends on the race)
          assertThat(outcome.seeks()).as("the partition the other task took over").containsOnlyKeys(partition(TAKEN_OVER));
          assertThat(commitsOfA.fenced).hasPositiveValue();
        } else {
          assertThat(outcome.failure().isPresent()).as("round %d: commits of %s fail", round, failing).isEqualTo(!failing.isEmpty());
          assertThat(outcome.seeks()).isEmpty();
        }
        Map<KafkaPartition, Long> committed = a.committedOffsets();
        for (int partition = 0; partition < PARTITIONS; partition++) {
          if (!a.holds(partition(partition)) || partition == TAKEN_OVER && takeover) {
            continue;
          }
          long end = log.get(partition).size();
          // in the first round a partition's anchor into a failing table does not land, which leaves the partition out of
          // the shared tables' commits, and those carry every partition
          if (round == 0 || takeover || tablesOf(partition).stream().anyMatch(failing::contains)) {
            assertThat(committed.getOrDefault(partition(partition), 0L)).as("round %d, partition %d", round, partition)
                .isLessThan(end);
          } else {
            assertThat(committed).as("round %d, partition %d", round, partition).containsEntry(partition(partition), end);
          }
        }
        if (takeover) {
          a.close(List.of(partition(TAKEN_OVER)));
        }
      }

      assertThat(a.flush()).isEqualTo(FlushOutcome.COMPLETE);
      for (int partition = 0; partition < PARTITIONS; partition++) {
        KafkaPartition kafka = partition(partition);
        Map<KafkaPartition, Long> committed = partition == TAKEN_OVER ? b.committedOffsets() : a.committedOffsets();
        assertThat(committed).containsEntry(kafka, (long) log.get(partition).size());
      }
      storageRequestsOfA = a.storageRequests();
    }

    long versions = 0;
    for (Map.Entry<String, Map<Long, Row>> table : model.entrySet()) {
      String path = dir.resolve(table.getKey()).toString();
      assertThat(KernelTables.readRows(path)).as(table.getKey()).containsExactlyInAnyOrderElementsOf(table.getValue().values());
      Snapshot snapshot = DeltaTable.forPath(new LocalStorage(), path).snapshot();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        if (tablesOf(partition).contains(table.getKey())) {
          assertThat(snapshot.txnVersion("sink:" + partition(partition).topic() + ":0")).as(table.getKey())
              .hasValue(log.get(partition).size() - 1L);
        }
      }
      versions += snapshot.version();
    }
    assertThat(commitsOfA.landed.get() + commitsOfB.landed.get()).as("every commit after each table's creation, counted once")
        .isEqualTo(versions);
    assertThat(commitsOfA.requests).as("each commit's requests: at least the publish of its log entry")
        .allSatisfy(requests -> assertThat(requests.get(RequestKind.CONDITIONAL_PUT)).isPositive());
    for (RequestKind kind : RequestKind.values()) {
      long ofCommits = commitsOfA.requests.stream().mapToLong(requests -> requests.get(kind)).sum();
      assertThat(ofCommits).as("%s requests of the commits, none counted twice", kind).isLessThanOrEqualTo(storageRequestsOfA.get(kind));
    }
    assertThat(commitsOfA.threads).containsOnly(engineThread);
    assertThat(commitsOfB.threads).containsOnly(engineThread);
  }

  /** Appends a round of records to every partition of the log and to the model. */
  private void grow() {
    for (int partition = 0; partition < PARTITIONS; partition++) {
      List<Change> records = log.get(partition);
      for (int i = 0; i < RECORDS_PER_ROUND; i++) {
        long offset = records.size();
        String table = offset % 5 == 4 ? shared(offset) : own(partition, offset);
        long id = partition * 1_000L + offset % 7;
        Change change = new Change(table, id, "p" + partition + "@" + offset);
        records.add(change);
        model.computeIfAbsent(table, t -> new HashMap<>()).put(id, row(id, change.name()));
      }
    }
  }

  /** Delivers the records of {@code partition} from {@code from} to the end of the log; returns the end. */
  private long deliver(IngestEngine engine, int partition, long from) {
    List<Change> records = log.get(partition);
    for (long offset = from; offset < records.size(); offset++) {
      Change change = records.get((int) offset);
      KafkaRecord upsert = ChangeRecords.upsert(0, offset, change.table(), change.id(), change.name());
      engine.accept(new KafkaRecord(partition(partition), offset, partition(partition).topic(), upsert.timestamp(), upsert.keySchema(),
          upsert.key(), upsert.valueSchema(), upsert.value(), upsert.headers()));
    }
    return records.size();
  }

  /**
   * The tables whose commits fail in {@code round}: one to three, each with changes in every round. None in the second
   * round, which lands the anchors a failure in the first left out (any of a blocked partition's), so that no partition
   * needs one from then on; none that the other task's partition feeds in the round it takes that partition over, so
   * that each commit carrying it meets the takeover.
   */
  private static Set<String> failing(Random random, int round) {
    if (round == 1) {
      return Set.of();
    }
    Set<String> candidates = new TreeSet<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      if (partition != TAKEN_OVER) {
        candidates.addAll(tablesOf(partition));
      }
    }
    if (round == TAKEOVER_ROUND) {
      candidates.removeAll(tablesOf(TAKEN_OVER));
    }
    List<String> tables = new ArrayList<>(candidates);
    Set<String> failing = new HashSet<>();
    int count = 1 + random.nextInt(3);
    while (failing.size() < count) {
      failing.add(tables.get(random.nextInt(tables.size())));
    }
    return failing;
  }

  private static List<String> tablesOf(int partition) {
    List<String> tables = new ArrayList<>();
    for (int table = 0; table < OWN_TABLES; table++) {
      tables.add("p" + partition + "t" + table);
    }
    for (int table = 0; table < SHARED_TABLES; table++) {
      tables.add("shared" + table);
    }
    return tables;
  }

  private static String own(int partition, long offset) {
    return "p" + partition + "t" + (offset % OWN_TABLES);
  }

  private static String shared(long offset) {
    return "shared" + (offset / 5 % SHARED_TABLES);
  }

  /** Partition {@code partition} of the stream: a topic of one partition, as Debezium creates one per source table. */
  private static KafkaPartition partition(int partition) {
    return new KafkaPartition(ChangeRecords.TOPIC + ".p" + partition, 0);
  }

  private static IngestEngine engine(String root, Commits commits) {
    IngestOptions options = IngestOptions.builder(root, "sink").tableNameFormat("${source.table}").commitInterval(Duration.ZERO)
        .commitThreads(4).compaction(false, 0.25, 2).build();
    return new IngestEngine(options, commits);
  }

  /** What an engine reported: landed commits with their requests, fencings, and the threads it reported on. */
  private static final class Commits implements IngestMetrics {
    final AtomicInteger landed = new AtomicInteger();
    final AtomicInteger fenced = new AtomicInteger();
    final ConcurrentLinkedQueue<RequestCounts> requests = new ConcurrentLinkedQueue<>();
    final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    @Override
    public void committed(long latencyMs, long rowsWritten, RequestCounts counts) {
      landed.incrementAndGet();
      requests.add(counts);
      threads.add(Thread.currentThread());
    }

    @Override
    public void fenced() {
      fenced.incrementAndGet();
      threads.add(Thread.currentThread());
    }
  }
}
