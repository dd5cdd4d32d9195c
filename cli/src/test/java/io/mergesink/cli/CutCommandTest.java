package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.cut.CutCandidates;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.TransactionBoundaries;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.PaimonTables;
import io.mergesink.ingest.testing.TransferRecords;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CutCommandTest {
  private static final long CUT_INTERVAL_MS = 100;

  @TempDir Path root;

  @Test
  void printsEachTablesVersionAndStatementsAtTheNewestCutBeforeTheTimeAsked() throws Exception {
    TransferRecords bank = land(TableFormatName.DELTA);
    TransferRecords.End newest = bank.ends().get(bank.ends().size() - 2); // the last END of the last whole interval

    JsonNode cut = CliRun.json("cut", root.toString(), "--json");

    assertThat(cut.path("cutOffset").asLong()).isEqualTo(newest.offset());
    assertThat(cut.path("sourcePosition").asText()).isEqualTo(newest.event().id());
    List<String> tables = new ArrayList<>();
    for (JsonNode table : cut.path("tables")) {
      tables.add(table.path("table").asText());
      long version = table.path("version").asLong();
      assertThat(table.path("statements").path("spark").asText())
          .isEqualTo("SELECT * FROM delta.`" + root + "/" + table.path("table").asText() + "` VERSION AS OF " + version);
      Map<Long, List<Object>> rows = new HashMap<>();
      for (Row row : KernelTables.readRows(root.resolve(table.path("table").asText()).toString(), version)) {
        rows.put((Long) row.get(0), List.of(row.toArray()));
      }
      assertThat(rows).as("table %s at the cut's version", table.path("table").asText())
          .isEqualTo(bank.stateAt(newest.offset()).get(table.path("table").asText()));
    }
    assertThat(tables).containsExactly("checking", "savings", TransferRecords.TRANSFERS);

    CliRun before = CliRun.of("cut", root.toString(), "--at", Instant.ofEpochMilli(0).minusSeconds(1).toString());
    assertThat(before.code()).isEqualTo(MergeSinkCli.EXIT_FAILED);
    assertThat(before.err()).contains("no cut under");
  }

  @Test
  void printsSparkTrinoAndFlinkStatementsAtTheSnapshotsOfACutOfPaimonTables() throws Exception {
    TransferRecords bank = land(TableFormatName.PAIMON);
    TransferRecords.End newest = bank.ends().get(bank.ends().size() - 2);

    JsonNode cut = CliRun.json("cut", root.toString(), "--json"); // found to be Paimon by its cut table

    assertThat(cut.path("cutOffset").asLong()).isEqualTo(newest.offset());
    for (JsonNode table : cut.path("tables")) {
      String name = table.path("table").asText();
      long snapshot = table.path("version").asLong();
      assertThat(table.path("statements").path("spark").asText()).isEqualTo("SELECT * FROM default." + name + " VERSION AS OF " + snapshot);
      assertThat(table.path("statements").path("trino").asText()).isEqualTo("SELECT * FROM default." + name + " FOR VERSION AS OF "
          + snapshot);
      assertThat(table.path("statements").path("flink").asText())
          .isEqualTo("SELECT * FROM default." + name + " /*+ OPTIONS('scan.snapshot-id' = '" + snapshot + "') */");
      Map<Long, List<Object>> rows = new HashMap<>();
      for (Row row : PaimonTables.readRows(PaimonTables.at(PaimonTables.load(root.toString(), "default", name), snapshot))) {
        rows.put((Long) row.get(0), List.of(row.toArray()));
      }
      assertThat(rows).as("table %s at the cut's snapshot", name).isEqualTo(bank.stateAt(newest.offset()).get(name));
    }
  }

  /** A bank's 30 transfers landed in tables of {@code format} under the root by one task holding every topic, and their newest cut. */
  private TransferRecords land(TableFormatName format) {
    TransferRecords bank = new TransferRecords(3);
    Random random = new Random(7);
    for (int transfer = 1; transfer <= 30; transfer++) {
      bank.transfer(random, transfer * 10L);
    }
    Map<String, TransactionEvent> ends = new HashMap<>();
    CutCandidates candidates = new CutCandidates(CUT_INTERVAL_MS);
    IngestOptions options = IngestOptions.builder(root.toString(), "sink").tableFormat(format).tableNameFormat("${source.table}")
        .commitInterval(Duration.ofHours(1))
        .transactions(new TransactionOptions(TransactionBoundaries.ON, TransferRecords.TRANSACTION_TOPIC, Map.of(),
            Duration.ofMillis(CUT_INTERVAL_MS)))
        .build();
    TransactionEnds read = id -> Optional.ofNullable(ends.get(id));
    try (IngestEngine engine = new IngestEngine(options, new IngestMetrics() {}, read, candidates)) {
      List<KafkaPartition> partitions = new ArrayList<>(bank.partitions().values());
      partitions.add(TransferRecords.transactionTopic());
      engine.open(partitions);
      engine.seeksApplied();
      bank.partitions().keySet().forEach(table -> bank.records(table).forEach(engine::accept));
      for (TransferRecords.End end : bank.ends()) {
        ends.put(end.event().id(), end.event());
        candidates.ended(TransferRecords.transactionTopic(), end.offset(), end.event());
      }
      engine.flush(); // the tables up to the newest cut
      engine.flush(); // the cut
    }
    return bank;
  }
}
