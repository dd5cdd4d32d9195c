package io.mergesink.examples.streams;

import io.mergesink.ingest.config.TableOptions;
import io.mergesink.streams.ConnectSerde;
import io.mergesink.streams.MergeSink;
import io.mergesink.streams.RowChange;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
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
 * <p>Run: {@code java -jar examples/streams/target/mergesink-streams-example.jar [FILE.properties ...] [--key=value ...]}
 * (e.g. {@code --mergesink.table.root=/tmp/lake}): Streams' settings, the topic and MergeSink's
 * options ({@link ExampleSettings}).
 */
public final class CustomersToDelta {
  static final Schema BAND = SchemaBuilder.struct().name("balance_band")
      .field("id", Schema.INT64_SCHEMA)
      .field("band", Schema.STRING_SCHEMA)
      .build();
  private static final BigDecimal MID = BigDecimal.valueOf(100);
  private static final BigDecimal HIGH = BigDecimal.valueOf(1000);

  private CustomersToDelta() {}

  /**
   * Both sinks, with the connector's {@code sinkOptions} ({@code table.root} at least); positions in
   * the tables are recorded under {@code applicationId}-mirror and -bands.
   */
  public static Topology topology(String topic, String applicationId, Map<String, String> sinkOptions) {
    Map<String, String> json = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    StreamsBuilder builder = new StreamsBuilder();
    KStream<SchemaAndValue, SchemaAndValue> changes = builder.stream(topic,
        Consumed.with(ConnectSerde.keys(new JsonConverter(), json), ConnectSerde.values(new JsonConverter(), json)));

    changes.process(MergeSink.toDelta(sink(sinkOptions, applicationId + "-mirror", "${source.table}")));
    changes.mapValues(CustomersToDelta::band)
        .process(MergeSink.toDelta(sink(sinkOptions, applicationId + "-bands", "balance_bands")));
    return builder.build();
  }

  private static Map<String, String> sink(Map<String, String> shared, String txnAppId, String tableNameFormat) {
    Map<String, String> options = new HashMap<>(shared);
    options.put(TableOptions.TXN_APP_ID, txnAppId);
    options.put(TableOptions.TABLE_NAME_FORMAT, tableNameFormat);
    return options;
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
    ExampleSettings settings;
    try {
      settings = ExampleSettings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage() + "\n" + ExampleSettings.USAGE);
      System.exit(2);
      return;
    }
    KafkaStreams streams = new KafkaStreams(topology(settings.topic(), settings.applicationId(), settings.sinkOptions()),
        settings.streamsProperties());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      streams.close();
      stopped.countDown();
    }));
    streams.start();
    stopped.await();
  }
}
