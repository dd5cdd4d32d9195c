package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The three commits of the engine the CLI's tests of a table format inspect, into table
 * {@value #TABLE}: keys 0..7 from partition 0; keys 0..2 replaced and key 3 deleted (half the first
 * commit's rows); key 100 from partition 1. And the rows {@code mergesink scan} prints of them.
 */
final class CustomerCommits {
  static final String TABLE = "customers";
  /** The positions of the engine's txn app id {@code sink}. */
  static final String POSITION_P0 = "sink:" + ChangeRecords.TOPIC + ":0";
  static final String POSITION_P1 = "sink:" + ChangeRecords.TOPIC + ":1";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
  private static final KafkaPartition P1 = new KafkaPartition(ChangeRecords.TOPIC, 1);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<Long, String> model = new TreeMap<>();

  private CustomerCommits() {}

  /**
   * Commits them with an engine of {@code options} (txn app id {@code sink}, a table name format
   * that routes {@value #TABLE} where the test looks).
   *
   * @return the rows the table holds afterwards, id → name
   */
  static Map<Long, String> write(IngestOptions options) {
    CustomerCommits commits = new CustomerCommits();
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(List.of(P0, P1));
      for (long offset = 0; offset < 8; offset++) {
        engine.accept(commits.upsert(0, offset, offset, "v" + offset));
      }
      engine.flush();
      for (long offset = 8; offset < 11; offset++) {
        engine.accept(commits.upsert(0, offset, offset - 8, "w" + offset));
      }
      commits.model.remove(3L);
      engine.accept(ChangeRecords.delete(0, 11, TABLE, 3));
      engine.flush();
      engine.accept(commits.upsert(1, 0, 100, "p1"));
      engine.flush();
    }
    return commits.model;
  }

  private KafkaRecord upsert(int partition, long offset, long id, String name) {
    model.put(id, name);
    return ChangeRecords.upsert(partition, offset, TABLE, id, name);
  }

  /** The rows {@code mergesink scan} prints as JSON lines with {@code args}: id → name. */
  static Map<Long, String> scan(String... args) throws JsonProcessingException {
    CliRun result = CliRun.of(args);
    assertThat(result.code()).as(result.err()).isZero();
    Map<Long, String> rows = new HashMap<>();
    for (String line : result.out().lines().toList()) {
      JsonNode row = JSON.readTree(line);
      assertThat(rows.put(row.get("id").asLong(), row.get("name").asText())).as("each key once").isNull();
    }
    return new TreeMap<>(rows);
  }
}
