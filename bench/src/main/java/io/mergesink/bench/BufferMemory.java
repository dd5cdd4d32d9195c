package io.mergesink.bench;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.connect.sink.SinkRecords;
import io.mergesink.ingest.buffer.BufferLimits;
import io.mergesink.ingest.buffer.PartitionBuffer;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.decode.RecordDecoder;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;

/**
 * The {@code memory} suite (bench/README.md, "Memory"): heap per buffered change. The e2e
 * suite's change events, as JSON bytes through the worker's converter (DebeziumJsonConverter),
 * decoded as the task decodes them, go into one partition buffer with no limits; the settled heap
 * after minus before, per buffered change, against the buffer's own estimate (what
 * {@code buffer.max.bytes} is compared with). Distinct keys (inserts) and, separately, updates
 * coalesced onto fewer keys. That {@code buffer.max.bytes} bounds a task's heap is shown by an e2e
 * run with a small heap (bench README, "Memory").
 *
 * <pre>
 * java -Xmx4g -jar bench/target/mergesink-bench.jar memory [--changes=N]
 * </pre>
 */
final class BufferMemory {
  static final String SUITE = "memory";
  private static final long DEFAULT_CHANGES = 500_000;
  private static final String TOPIC = "memory";
  private static final long MIB = 1024 * 1024;

  private BufferMemory() {}

  public static void main(String[] args) {
    long changes = DEFAULT_CHANGES;
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--changes=")) {
        changes = Long.parseLong(args[i].substring("--changes=".length()));
      } else {
        System.err.println("usage: java -Xmx4g -jar mergesink-bench.jar memory [--changes=N]");
        System.exit(2);
      }
    }
    ResultTable report = new ResultTable();
    measure("inserts (every change a new key)", new E2eWorkload(E2eWorkload.Kind.INSERT_ONLY, 1), changes, 0, report);
    measure("90/5/5 changes over " + changes / 10 + " keys (coalesced)", new E2eWorkload(E2eWorkload.Kind.MIXED_UNIFORM, 1), changes,
        changes / 10, report);
    System.out.printf("MergeSink buffer memory, Java %s, max heap %,d MiB%n%n", System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() / MIB);
    System.out.print(report.toMarkdown());
  }

  private static void measure(String label, E2eWorkload workload, long changes, long preloadKeys, ResultTable report) {
    for (long i = 0; i < preloadKeys; i++) {
      workload.insert();
    }
    Map<String, String> props = new HashMap<>(RecordFormat.JSON_FAST.connectorConfig());
    props.put(TableOptions.TABLE_ROOT, "/unused");
    props.put(MergeSinkConfig.CONNECTOR_NAME, SUITE);
    MergeSinkConfig config = new MergeSinkConfig(props);
    RecordDecoder decoder = new RecordDecoder(config.ingestOptions().decoderOptions());
    ChangeEncoder encoder = new ChangeEncoder(RecordFormat.JSON);
    Converter keys = RecordFormat.JSON_FAST.workerConverter(true);
    Converter values = RecordFormat.JSON_FAST.workerConverter(false);
    PartitionBuffer buffer = new PartitionBuffer(TOPIC, 0, PendingChanges::coalescedByKey, new BufferLimits(Long.MAX_VALUE, Long.MAX_VALUE));
    long before = HeapProbe.settledUsedHeap();
    for (long offset = 0; offset < changes; offset++) {
      E2eWorkload.Change change = workload.next();
      SchemaAndValue key = keys.toConnectData(TOPIC, encoder.key(TOPIC, change.id()));
      SchemaAndValue value = values.toConnectData(TOPIC, encoder.value(TOPIC, change));
      SinkRecord record = new SinkRecord(TOPIC, 0, key.schema(), key.value(), value.schema(), value.value(), offset);
      buffer.add(TOPIC, decoder.decode(SinkRecords.view(record)));
    }
    long after = HeapProbe.settledUsedHeap();
    long buffered = buffer.changeCount();
    report.add(Result.info("heap per buffered change, " + label, String.format("%.0f B measured (settled heap after − before, %,d changes "
        + "buffered of %,d); %.0f B buffer estimate", (after - before) / (double) buffered, buffered, changes,
        buffer.estimatedBytes() / (double) buffered)));
    if (buffer.isEmpty()) {
      throw new IllegalStateException("nothing buffered");
    }
  }
}
