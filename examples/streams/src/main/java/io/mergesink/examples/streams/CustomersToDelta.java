package io.mergesink.examples.streams;

import io.mergesink.ingest.IngestOptions;
import io.mergesink.streams.ConnectSerde;
import io.mergesink.streams.MergeSink;
import io.mergesink.streams.RowChange;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;

/**
 * A Kafka Streams application with two Delta sinks on one Debezium topic of a PostgreSQL
 * {@code customers(id bigint primary key, name text, balance numeric(10,2), ...)} table (the
 * quickstart's and the tests' shape, JSON with schemas):
 *
 * <ol>
 *   <li>the change stream as it is, into the table {@code customers} (named after Debezium's
 *       {@code source.table}): a mirror of the source table, as the connector would write it;
 *   <li>rows the application computes, into {@code balance_bands}: each customer's band
 *       ({@code low}, {@code mid}, {@code high}), deleted with the customer.
 * </ol>
 *
 * <p>Run: {@code java -jar examples/streams/target/mergesink-streams-example.jar BOOTSTRAP TOPIC TABLE_ROOT}
 * (e.g. {@code localhost:9092 pg.public.customers /tmp/lake}).
 */
public final class CustomersToDelta {
  static final Schema BAND = SchemaBuilder.struct().name("balance_band")
      .field("id", Schema.INT64_SCHEMA)
      .field("band", Schema.STRING_SCHEMA)
      .build();
  private static final BigDecimal MID = BigDecimal.valueOf(100);
  private static final BigDecimal HIGH = BigDecimal.valueOf(1000);

  private CustomersToDelta() {}

  /** Both sinks; positions in the tables are recorded under {@code applicationId}-mirror and -bands. */
  public static Topology topology(String topic, String tableRoot, String applicationId) {
    Map<String, String> json = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    StreamsBuilder builder = new StreamsBuilder();
    KStream<SchemaAndValue, SchemaAndValue> changes = builder.stream(topic,
        Consumed.with(ConnectSerde.keys(new JsonConverter(), json), ConnectSerde.values(new JsonConverter(), json)));

    changes.process(MergeSink.toDelta(IngestOptions.builder(tableRoot, applicationId + "-mirror")
        .tableNameFormat("${source.table}")
        .build()));

    changes.mapValues(CustomersToDelta::band)
        .process(MergeSink.toDelta(IngestOptions.builder(tableRoot, applicationId + "-bands")
            .tableNameFormat("balance_bands")
            .build()));
    return builder.build();
  }

  /** The band row of a Debezium change of a customer; a delete (or tombstone) deletes the customer's band. */
  static RowChange band(SchemaAndValue change) {
    Struct envelope = change == null ? null : (Struct) change.value();
    Struct after = envelope == null ? null : envelope.getStruct("after");
    if (after == null) {
      return RowChange.delete();
    }
    BigDecimal balance = (BigDecimal) after.get("balance");
    String band = balance == null || balance.compareTo(MID) < 0 ? "low" : balance.compareTo(HIGH) < 0 ? "mid" : "high";
    return RowChange.upsert(new Struct(BAND).put("id", after.getInt64("id")).put("band", band));
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 3) {
      System.err.println("usage: java -jar mergesink-streams-example.jar BOOTSTRAP_SERVERS TOPIC TABLE_ROOT");
      System.exit(2);
    }
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "mergesink-streams-example");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    // every Streams commit is a Delta commit per table and task: commit every 10 s, not every 100 ms
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 10_000);
    KafkaStreams streams = new KafkaStreams(topology(args[1], args[2], "mergesink-streams-example"), properties);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      streams.close();
      stopped.countDown();
    }));
    streams.start();
    stopped.await();
  }
}
