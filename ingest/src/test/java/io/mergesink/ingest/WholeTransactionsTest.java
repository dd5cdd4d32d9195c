package io.mergesink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.PaimonOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.TransactionBoundaries;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.table.TableSink;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.PaimonTables;
import io.mergesink.ingest.testing.TransactionRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole source transactions (docs/transactions.md) on real tables: a bank whose transactions move
 * money between two accounts and record the transfer. Every version of the accounts table holds the
 * same total, whichever way flushes and restarts cut the stream; a transaction larger than the
 * buffer lands in pieces whose commits name it, in every table format.
 */
class WholeTransactionsTest {
  private static final KafkaPartition P0 = new KafkaPartition(TransactionRecords.TOPIC, 0);
  private static final String APP_ID = "sink:" + TransactionRecords.TOPIC + ":0";
  private static final long TOTAL = 200;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final TransactionRecords bank = new TransactionRecords(0);
  private final AtomicInteger inPieces = new AtomicInteger();

  @Test
  void aCommitNeverHoldsPartOfATransactionWhenFlushesAndRestartsCutBetweenItsEvents() {
    try (IngestEngine first = engine(IngestOptions.builder(dir.toString(), "sink"))) {
      openAccounts(first);
      bank.begin("t1");
      first.accept(bank.change("accounts", 1, 70));
      first.flush(); // the flush cuts t1 after its first event: only the opening lands
      assertThat(first.committedOffsets()).containsExactly(Map.entry(P0, 2L));
      assertThat(first.openTransactions()).isEqualTo(1);

      first.accept(bank.change("accounts", 2, 130));
      first.accept(bank.change("transfers", 1, 30));
      first.flush();
      assertThat(first.committedOffsets()).as("t1 is not known complete before its END").containsExactly(Map.entry(P0, 2L));
      bank.end();
      bank.begin("t2");
      first.accept(bank.change("accounts", 1, 60));
      first.flush();
      assertThat(first.committedOffsets()).containsExactly(Map.entry(P0, 5L));
    } // gone without committing the rest of t2, as after a crash

    try (IngestEngine second = engine(IngestOptions.builder(dir.toString(), "sink"))) {
      assertThat(second.open(List.of(P0))).as("the rest of t2 is read again").containsExactly(Map.entry(P0, 5L));
      second.seeksApplied();
      bank.rewind(5, "t2");
      second.accept(bank.change("accounts", 1, 60));
      second.accept(bank.change("accounts", 2, 140));
      second.accept(bank.change("transfers", 2, 10));
      bank.end();
      second.flush();
      assertThat(second.committedOffsets()).containsExactly(Map.entry(P0, 8L));
      assertThat(second.openTransactions()).isZero();
    }
    String accounts = dir.resolve("accounts").toString();
    assertThat(KernelTables.readRows(accounts)).containsExactlyInAnyOrder(Row.of(1L, 60L), Row.of(2L, 140L));
    assertThat(KernelTables.readRows(dir.resolve("transfers").toString())).containsExactlyInAnyOrder(Row.of(1L, 30L), Row.of(2L, 10L));
    assertThat(KernelTables.txnVersion(accounts, APP_ID)).contains(7L);
    for (long version = 0; version <= KernelTables.latestVersion(accounts); version++) {
      List<Row> rows = KernelTables.readRows(accounts, version);
      if (!rows.isEmpty()) {
        assertThat(rows.stream().mapToLong(row -> (Long) row.get(1)).sum()).as("the total at version %d", version).isEqualTo(TOTAL);
      }
    }
    assertThat(inPieces).hasValue(0);
  }

  @Test
  void aPartitionReleasedInTheMiddleOfATransactionIsReadAgainFromItsFirstEventByTheNextOwner() {
    try (IngestEngine first = engine(IngestOptions.builder(dir.toString(), "sink"));
        IngestEngine next = engine(IngestOptions.builder(dir.toString(), "sink"))) {
      openAccounts(first);
      bank.begin("t1");
      first.accept(bank.change("accounts", 1, 50));
      assertThat(first.close(List.of(P0))).isEqualTo(FlushOutcome.COMPLETE);
      assertThat(first.openTransactions()).isZero();

      assertThat(next.open(List.of(P0))).containsExactly(Map.entry(P0, 2L));
      next.seeksApplied();
      bank.rewind(2, "t1");
      next.accept(bank.change("accounts", 1, 50));
      next.accept(bank.change("accounts", 2, 150));
      bank.end();
      next.flush();
      assertThat(next.committedOffsets()).containsExactly(Map.entry(P0, 4L));
    }
    assertThat(KernelTables.readRows(dir.resolve("accounts").toString())).containsExactlyInAnyOrder(Row.of(1L, 50L), Row.of(2L, 150L));
  }

  @ParameterizedTest
  @EnumSource(TableFormatName.class)
  void aTransactionLargerThanTheBufferLandsInPiecesWhoseCommitsNameIt(TableFormatName format) throws IOException {
    IngestOptions.Builder options = IngestOptions.builder(dir.toString(), "sink").tableFormat(format).bufferLimits(3, 1L << 30)
        .paimon(new PaimonOptions(Map.of(), "default", 1));
    try (IngestEngine engine = engine(options)) {
      engine.open(List.of(P0));
      bank.begin("big");
      for (long id = 1; id <= 3; id++) {
        engine.accept(bank.change("accounts", id, id));
      }
      assertThat(engine.buffersFull()).isTrue();
      engine.flush();
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 3L));
      engine.accept(bank.change("accounts", 4, 4));
      bank.end();
      bank.begin("small");
      engine.accept(bank.change("accounts", 5, 5));
      bank.end();
      engine.flush();
      assertThat(engine.committedOffsets()).containsExactly(Map.entry(P0, 5L));
    }
    assertThat(inPieces).hasValue(1);
    assertThat(piecesTags(format, "accounts")).as("the tags of the commits with rows, in order").containsExactly("big", "big");
  }

  /** Opens the partition and reads the transaction that opens accounts 1 and 2 with 100 each (offsets 0 and 1). */
  private void openAccounts(IngestEngine engine) {
    engine.open(List.of(P0));
    bank.begin("opening");
    engine.accept(bank.change("accounts", 1, TOTAL / 2));
    engine.accept(bank.change("accounts", 2, TOTAL / 2));
    bank.end();
  }

  private IngestEngine engine(IngestOptions.Builder options) {
    IngestOptions built = options.tableNameFormat("${source.table}").commitInterval(Duration.ofHours(1))
        .transactions(new TransactionOptions(TransactionBoundaries.ON, "", Map.of())).build();
    return new IngestEngine(built, new IngestMetrics() {
      @Override
      public void transactionsInPieces(int count) {
        inPieces.addAndGet(count);
      }
    }, bank);
  }

  /** The {@value TableSink#TRANSACTION_PIECES_TAG} tag of each commit of {@code table}, as the format's own reader sees them. */
  private List<String> piecesTags(TableFormatName format, String table) throws IOException {
    List<String> tags = new ArrayList<>();
    switch (format) {
      case DELTA -> {
        try (Stream<Path> commits = Files.list(dir.resolve(table).resolve("_delta_log"))) {
          for (Path commit : commits.filter(path -> path.toString().endsWith(".json")).sorted().toList()) {
            for (String line : Files.readAllLines(commit)) {
              JsonNode tag = JSON.readTree(line).path("commitInfo").path("tags").path(TableSink.TRANSACTION_PIECES_TAG);
              if (!tag.isMissingNode()) {
                tags.add(tag.asText());
              }
            }
          }
        }
      }
      case ICEBERG -> {
        for (Snapshot snapshot : IcebergTables.load(dir.toString(), "default", table).snapshots()) {
          String tag = snapshot.summary().get("mergesink.tag." + TableSink.TRANSACTION_PIECES_TAG);
          if (tag != null) {
            tags.add(tag);
          }
        }
      }
      case PAIMON -> PaimonTables.load(dir.toString(), "default", table).snapshotManager().snapshots().forEachRemaining(snapshot -> {
        String tag = snapshot.properties() == null ? null : snapshot.properties().get("mergesink.tag." + TableSink.TRANSACTION_PIECES_TAG);
        if (tag != null) {
          tags.add(tag);
        }
      });
    }
    return tags;
  }
}
