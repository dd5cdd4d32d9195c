package io.mergesink.bench;

import io.mergesink.connect.json.DebeziumJsonConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.Converter;

/**
 * The {@code converter} suite: the time of one {@code toConnectData} of Kafka's JsonConverter and of
 * MergeSink's DebeziumJsonConverter on the e2e suite's Debezium events (JSON with schemas, as
 * JsonConverter writes them; nine updates to one insert), in alternating rounds of the same JVM, so
 * each round gives a ratio taken under the same load. No Kafka, no sink: the converter alone.
 *
 * <pre>
 * java -Xmx2g -jar bench/target/mergesink-bench.jar converter [--rounds=N] [--records=N]
 * </pre>
 */
final class ConverterBenchmark {
  static final String SUITE = "converter";
  private static final String TOPIC = "pg.public.customers";
  private static final int DISTINCT_EVENTS = 2_000;
  private static final int WARM_UP_ROUNDS = 5;

  private ConverterBenchmark() {}

  static void main(String[] args) {
    int rounds = 20;
    int records = 100_000;
    for (String arg : args) {
      if (arg.startsWith("--rounds=")) {
        rounds = Integer.parseInt(arg.substring("--rounds=".length()));
      } else if (arg.startsWith("--records=")) {
        records = Integer.parseInt(arg.substring("--records=".length()));
      } else if (!arg.equals(SUITE)) {
        throw new IllegalArgumentException("unknown argument '" + arg + "'; usage: converter [--rounds=N] [--records=N]");
      }
    }
    Map<String, String> config = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");
    JsonConverter writer = new JsonConverter();
    writer.configure(config, false);
    List<byte[]> events = new ArrayList<>(DISTINCT_EVENTS);
    for (int id = 0; id < DISTINCT_EVENTS; id++) {
      events.add(writer.fromConnectData(TOPIC, DebeziumEvents.VALUE,
          id % 10 == 0 ? DebeziumEvents.upsert("c", id, 1) : DebeziumEvents.upsert("u", id, 2)));
    }
    Converter kafka = new JsonConverter();
    kafka.configure(config, false);
    Converter ours = new DebeziumJsonConverter();
    ours.configure(config, false);
    double[] kafkaMicros = new double[rounds];
    double[] oursMicros = new double[rounds];
    double[] ratios = new double[rounds];
    for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
      double kafkaTime = microsPerRecord(kafka, events, records);
      double oursTime = microsPerRecord(ours, events, records);
      if (round >= 0) {
        kafkaMicros[round] = kafkaTime;
        oursMicros[round] = oursTime;
        ratios[round] = kafkaTime / oursTime;
      }
    }
    System.out.printf("Converter alone, %,d conversions of %,d distinct Debezium events (%,d bytes on average) per round, %d rounds%n",
        records, DISTINCT_EVENTS, events.stream().mapToInt(event -> event.length).sum() / DISTINCT_EVENTS, rounds);
    System.out.println("| converter | time per record |");
    System.out.println("|---|---|");
    System.out.println("| JsonConverter | " + Samples.of(kafkaMicros).describe("%.2f", "µs") + " |");
    System.out.println("| DebeziumJsonConverter | " + Samples.of(oursMicros).describe("%.2f", "µs") + " |");
    System.out.println("JsonConverter ÷ DebeziumJsonConverter per round: " + Samples.of(ratios).describe("%.2f", "×"));
  }

  private static double microsPerRecord(Converter converter, List<byte[]> events, int records) {
    long start = System.nanoTime();
    int fields = 0;
    for (int i = 0; i < records; i++) {
      fields += converter.toConnectData(TOPIC, events.get(i % events.size())).schema().fields().size();
    }
    if (fields == 0) {
      throw new IllegalStateException("no fields converted");
    }
    return (System.nanoTime() - start) / 1_000.0 / records;
  }
}
