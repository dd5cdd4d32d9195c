package io.mergesink.bench;

import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium change events of the customers table ({@link DebeziumEvents}) fed straight to an ingest
 * engine, one Kafka partition, a flush after every batch: how the suites that measure the engine
 * without Kafka Connect land a stream.
 */
final class EngineLanding {
  static final String TOPIC = "pg.public.customers";
  static final KafkaPartition PARTITION = new KafkaPartition(TOPIC, 0);
  /** The table the engine lands the customers events in ({@code ${source.table}}). */
  static final String TABLE = "customers";

  private EngineLanding() {}

  /** Options of an engine writing the customers table under {@code root}, committing only when flushed. */
  static IngestOptions.Builder options(Path root) {
    return IngestOptions.builder(root.toString(), "bench").tableNameFormat("${source.table}").commitInterval(Duration.ofDays(1));
  }

  /** The record at {@code offset} of {@link #PARTITION}: the change event {@code value} of key {@code id}. */
  static KafkaRecord record(long offset, long id, Struct value) {
    return new KafkaRecord(PARTITION, offset, TOPIC, offset, DebeziumEvents.KEY, DebeziumEvents.key(id), DebeziumEvents.VALUE, value,
        RecordHeaders.NONE);
  }

  /** Accepts {@code records}, flushing after every {@code batch} of them and at the end; opens {@link #PARTITION} first if needed. */
  static void land(IngestEngine engine, List<KafkaRecord> records, int batch) {
    if (!engine.holds(PARTITION)) {
      engine.open(List.of(PARTITION));
      engine.seeksApplied();
    }
    for (int i = 0; i < records.size(); i++) {
      engine.accept(records.get(i));
      if ((i + 1) % batch == 0 || i == records.size() - 1) {
        flush(engine);
      }
    }
  }

  /** Flushes {@code engine}, whose commits must all succeed: a benchmark of failed commits measures nothing. */
  static void flush(IngestEngine engine) {
    engine.flush().failure().ifPresent(e -> {
      throw new IllegalStateException("a benchmark commit failed", e);
    });
  }
}
