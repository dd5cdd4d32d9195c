package io.mergesink.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.localconnect.debezium.CustomerEvents;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.BadRecordException;
import io.mergesink.ingest.options.PrimaryKeyMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The processor in a {@link TopologyTestDriver}, which commits the task after every record: each
 * commit lands the buffered change through the store's pre-commit hook (the engine's own commit
 * interval is 30 s here and never due), and the table read back with Delta Kernel holds what the
 * records describe, at the position of the last one.
 */
class DeltaSinkProcessorTest {
  private static final String TOPIC = "pg.public.customers";
  private static final String APP_ID = "orders-app";
  private static final Map<String, String> JSON = Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "true");

  @TempDir
  Path root;

  @Test
  void landsDebeziumEnvelopesAtEveryCommitAndRecordsThePosition() {
    try (TopologyTestDriver driver = debeziumDriver(options())) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1)));
      input.pipeInput(key(2), envelope(CustomerEvents.upsert("c", 2, 1)));
      assertThat(rows()).containsExactlyInAnyOrder(CustomerEvents.expectedRow(1, 1), CustomerEvents.expectedRow(2, 1));
      assertThat(txnVersion()).contains(1L);

      input.pipeInput(key(1), envelope(CustomerEvents.upsert("u", 1, 2)));
      input.pipeInput(key(2), envelope(CustomerEvents.delete(2, 2)));
      input.pipeInput(key(2), (byte[]) null); // the tombstone after the delete
      assertThat(rows()).containsExactly(CustomerEvents.expectedRow(1, 2));
      assertThat(txnVersion()).contains(4L);
      assertThat(sinkMetric(driver, "commit-total")).isEqualTo(5.0);
      assertThat(sinkMetric(driver, "rows-written-total")).isEqualTo(3.0);
    }
  }

  @Test
  void aRestartedTaskSkipsWhatTheTableHoldsAndLandsTheRest() {
    try (TopologyTestDriver driver = debeziumDriver(options())) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      upsertVersions(input, 1, 2);
    }
    long version = KernelTables.latestVersion(table());
    try (TopologyTestDriver driver = debeziumDriver(options())) {
      // a new driver starts again at offset 0: the first two records are replays of what the table holds
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      upsertVersions(input, 1, 2);
      assertThat(KernelTables.latestVersion(table())).isEqualTo(version);
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("u", 1, 3)));
    }
    assertThat(rows()).containsExactly(CustomerEvents.expectedRow(1, 3));
    assertThat(txnVersion()).contains(2L);
  }

  /**
   * A primary-key change from 3 to 1001 ({@link KeyChangeEvents}): the driver commits after each
   * record, so commits fall between its delete, tombstone and create; the create still takes the
   * unchanged TOAST column from key 3's row.
   */
  @Test
  void aPrimaryKeyChangeSplitByCommitsKeepsTheRowsUnchangedToastColumns() {
    try (TopologyTestDriver driver = debeziumDriver(options())) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      input.pipeInput(key(3), envelope(CustomerEvents.upsert("c", 3, 1)));
      input.pipeInput(keyChangeDelete(3, 1001));
      input.pipeInput(key(3), (byte[]) null);
      assertThat(rows()).as("the delete waits for its create").containsExactly(CustomerEvents.expectedRow(3, 1));

      input.pipeInput(keyChangeCreate(3, 1001));
    }
    assertThat(rows()).containsExactly(KeyChangeEvents.expectedRow(3, 1001));
    assertThat(txnVersion()).contains(3L);
  }

  /**
   * A key change whose create went to another partition: its delete waits for one commit, not
   * more. The punctuator that releases it runs at the engine's commit interval, or, with none, at
   * Streams' (30 s under {@code at_least_once} by default).
   */
  @ParameterizedTest
  @ValueSource(longs = {0, 30})
  void aKeyChangeWhoseCreateWentElsewhereWaitsOneCommitOnly(long engineCommitIntervalSeconds) {
    IngestOptions options = IngestOptions.builder(root.toString(), APP_ID)
        .commitInterval(Duration.ofSeconds(engineCommitIntervalSeconds))
        .build();
    try (TopologyTestDriver driver = debeziumDriver(options)) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      input.pipeInput(key(3), envelope(CustomerEvents.upsert("c", 3, 1)));
      input.pipeInput(keyChangeDelete(3, 1001));
      input.pipeInput(key(3), (byte[]) null);
      assertThat(rows()).containsExactly(CustomerEvents.expectedRow(3, 1));

      driver.advanceWallClockTime(Duration.ofSeconds(30));
    }
    assertThat(rows()).isEmpty();
    assertThat(txnVersion()).contains(2L);
  }

  /**
   * A KTable's cache forwards its records when the task commits, from the same pre-commit flush:
   * Streams flushes stores in topological order, so they reach the sink before its own flush.
   */
  @Test
  void recordsAnUpstreamCacheForwardsAtACommitLandInThatCommit() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.table(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)),
            Materialized.<SchemaAndValue, SchemaAndValue, KeyValueStore<Bytes, byte[]>>as("latest-envelopes").withCachingEnabled())
        .toStream()
        .process(MergeSink.toDelta(options()));
    Properties properties = properties();
    properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 10 * 1024 * 1024L);
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties)) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1)));
      assertThat(rows()).containsExactly(CustomerEvents.expectedRow(1, 1));
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("u", 1, 2)));
      assertThat(rows()).containsExactly(CustomerEvents.expectedRow(1, 2));
      assertThat(txnVersion()).contains(1L);
    }
  }

  @Test
  void aZombieTasksCommitIsFencedAndStreamsToldTheTaskMigrated() {
    try (TopologyTestDriver zombie = debeziumDriver(options())) {
      TestInputTopic<byte[], byte[]> zombieInput = debeziumInput(zombie);
      upsertVersions(zombieInput, 1, 2);
      try (TopologyTestDriver owner = debeziumDriver(options())) {
        // the partition's new owner replays offsets 0 and 1 and commits offset 2
        TestInputTopic<byte[], byte[]> ownerInput = debeziumInput(owner);
        upsertVersions(ownerInput, 1, 2);
        ownerInput.pipeInput(key(1), envelope(CustomerEvents.upsert("u", 1, 3)));
      }
      assertThatThrownBy(() -> zombieInput.pipeInput(key(1), envelope(CustomerEvents.upsert("u", 1, 99))))
          .isInstanceOf(TaskMigratedException.class)
          .hasMessageContaining("no longer owns [" + TOPIC + "-0]");
    }
    assertThat(rows()).containsExactly(CustomerEvents.expectedRow(1, 3));
    assertThat(txnVersion()).contains(2L);
  }

  @Test
  void aTableCommitThatFailsFailsTheStreamsCommitAndARestartLandsTheChanges() throws Exception {
    Path log = root.resolve(TOPIC).resolve("_delta_log");
    Path moved = root.resolve("moved_delta_log");
    TopologyTestDriver failing = debeziumDriver(options());
    TestInputTopic<byte[], byte[]> failingInput = debeziumInput(failing);
    failingInput.pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1)));
    // the log directory becomes a file: the next commit cannot be written
    Files.move(log, moved);
    Files.writeString(log, "not a directory");
    assertThatThrownBy(() -> failingInput.pipeInput(key(2), envelope(CustomerEvents.upsert("c", 2, 1))))
        .isInstanceOf(StreamsException.class)
        .hasStackTraceContaining("could not commit to the tables under " + root);
    // a clean close commits first, and fails the same way
    assertThatThrownBy(failing::close).hasStackTraceContaining("could not commit to the tables under " + root);
    Files.delete(log);
    Files.move(moved, log);
    try (TopologyTestDriver driver = debeziumDriver(options())) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1)));
      input.pipeInput(key(2), envelope(CustomerEvents.upsert("c", 2, 1)));
    }
    assertThat(rows()).containsExactlyInAnyOrder(CustomerEvents.expectedRow(1, 1), CustomerEvents.expectedRow(2, 1));
    assertThat(txnVersion()).contains(1L);
  }

  @Test
  void landsRowChangesTheApplicationBuilds() {
    Schema row = SchemaBuilder.struct().name("customer_balance")
        .field("id", Schema.INT64_SCHEMA).field("name", Schema.STRING_SCHEMA).build();
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("names", Consumed.with(Serdes.Long(), Serdes.String()))
        .mapValues((id, name) -> name == null ? RowChange.delete() : RowChange.upsert(new Struct(row).put("id", id).put("name", name)))
        .process(MergeSink.toDelta(IngestOptions.builder(root.toString(), APP_ID)
            .primaryKey(PrimaryKeyMode.RECORD_KEY, List.of("id")).build()));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties())) {
      TestInputTopic<Long, String> input = driver.createInputTopic("names", new LongSerializer(), new StringSerializer());
      input.pipeKeyValueList(List.of(KeyValue.pair(1L, "ann"), KeyValue.pair(2L, "bob"), KeyValue.pair(1L, "anna"),
          KeyValue.pair(2L, null)));
    }
    assertThat(KernelTables.readRows(root.resolve("names").toString())).containsExactly(Row.of(1L, "anna"));
    assertThat(KernelTables.txnVersion(root.resolve("names").toString(), APP_ID + ":names:0")).contains(3L);
  }

  @Test
  void takesTheConnectorsOptionNames() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)))
        .process(MergeSink.toDelta(Map.of("table.root", root.toString(), "txn.app.id", APP_ID,
            "table.name.format", "${source.schema}/${source.table}", "merge.strategy", "copy-on-write")));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties())) {
      debeziumInput(driver).pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1)));
    }
    String table = root.resolve("public").resolve("customers").toString();
    assertThat(KernelTables.readRows(table)).containsExactly(CustomerEvents.expectedRow(1, 1));
    assertThat(KernelTables.protocol(table).writerFeatures()).doesNotContain("deletionVectors");
  }

  @Test
  void ordersChangesBySourceSequenceWithTheConnectorsOption() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)))
        .process(MergeSink.toDelta(Map.of("table.root", root.toString(), "txn.app.id", APP_ID, "upsert.order.by", "source.ts_ms")));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties())) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("u", 1, 2)));
      input.pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1))); // delivered late: an older source time
    }
    Row newest = CustomerEvents.expectedRow(1, 2);
    assertThat(KernelTables.readRows(table())).containsExactly(Row.of(newest.get(0), newest.get(1), newest.get(2), newest.get(3),
        CustomerEvents.sourceTimestamp(2)));
    assertThat(txnVersion()).contains(1L);
  }

  @Test
  void refusesConnectorOptionsWithoutATxnAppIdOrWithABadValue() {
    assertThatThrownBy(() -> MergeSink.toDelta(Map.of("table.root", root.toString())))
        .isInstanceOf(ConfigException.class).hasMessageContaining("txn.app.id");
    assertThatThrownBy(() -> MergeSink.toDelta(Map.of("table.root", root.toString(), "txn.app.id", APP_ID, "merge.strategy", "fastest")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("merge.strategy");
  }

  @Test
  void refusesARecordWithoutAnInputPosition() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)))
        .process(PunctuatorForwarder::new)
        .process(MergeSink.toDelta(options()));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties())) {
      debeziumInput(driver).pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1)));
      assertThatThrownBy(() -> driver.advanceWallClockTime(Duration.ofSeconds(2)))
          .hasStackTraceContaining("MergeSink.toDelta got a record without an input position")
          .hasStackTraceContaining("punctuator");
    }
  }

  @Test
  void refusesASecondRecordAtTheSameInputPosition() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)))
        .flatMapValues(value -> List.of(value, value))
        .process(MergeSink.toDelta(options()));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties())) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      assertThatThrownBy(() -> input.pipeInput(key(1), envelope(CustomerEvents.upsert("c", 1, 1))))
          .isInstanceOf(StreamsException.class)
          .hasStackTraceContaining("second record at topic " + TOPIC + ", partition 0, offset 0");
    }
  }

  @Test
  void aRecordThatCannotBeWrittenFailsWithItsPosition() {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(Serdes.Long(), Serdes.String())).process(MergeSink.toDelta(options()));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties())) {
      TestInputTopic<Long, String> input = driver.createInputTopic(TOPIC, new LongSerializer(), new StringSerializer());
      input.pipeInput(1L, "not a change event");
      throw new AssertionError("the record was accepted");
    } catch (StreamsException e) {
      assertThat(e).hasRootCauseInstanceOf(BadRecordException.class)
          .hasStackTraceContaining("record at topic " + TOPIC + ", partition 0, offset 0")
          .hasStackTraceContaining("expected a Struct");
    }
  }

  @Test
  void aRecordThatCannotBeWrittenGoesToStreamsDeadLetterQueueWhenTheHandlerContinues() {
    Properties properties = properties();
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueProcessingExceptionHandler.class.getName());
    properties.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "customers-dlq");
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)))
        .process(MergeSink.toDelta(options()));
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties)) {
      TestInputTopic<byte[], byte[]> input = debeziumInput(driver);
      JsonConverter values = new JsonConverter();
      values.configure(JSON, false);
      input.pipeInput(key(1), values.fromConnectData(TOPIC, Schema.STRING_SCHEMA, "not a change event"));
      input.pipeInput(key(2), envelope(CustomerEvents.upsert("c", 2, 1)));
      assertThat(driver.createOutputTopic("customers-dlq", (topic, bytes) -> bytes, (topic, bytes) -> bytes).readRecordsToList())
          .hasSize(1);
    }
    assertThat(rows()).containsExactly(CustomerEvents.expectedRow(2, 1));
    assertThat(txnVersion()).contains(1L);
  }

  /** Forwards a record from a wall-clock punctuator: it has no input position. */
  private static final class PunctuatorForwarder implements Processor<SchemaAndValue, SchemaAndValue, SchemaAndValue, SchemaAndValue> {
    private Record<SchemaAndValue, SchemaAndValue> last;

    @Override
    public void init(ProcessorContext<SchemaAndValue, SchemaAndValue> context) {
      context.schedule(Duration.ofSeconds(1), PunctuationType.WALL_CLOCK_TIME, now -> {
        if (last != null) {
          context.forward(last);
        }
      });
    }

    @Override
    public void process(Record<SchemaAndValue, SchemaAndValue> record) {
      last = record;
    }
  }

  /** Customer {@code id} inserted, then updated up to {@code version}: one record per version, from offset 0. */
  private static void upsertVersions(TestInputTopic<byte[], byte[]> input, long id, int version) {
    for (int v = 1; v <= version; v++) {
      input.pipeInput(key(id), envelope(CustomerEvents.upsert(v == 1 ? "c" : "u", id, v)));
    }
  }

  private static double sinkMetric(TopologyTestDriver driver, String name) {
    return driver.metrics().values().stream()
        .filter(metric -> metric.metricName().group().equals("stream-mergesink-metrics") && metric.metricName().name().equals(name))
        .mapToDouble(metric -> ((Number) metric.metricValue()).doubleValue())
        .sum();
  }

  private IngestOptions options() {
    return IngestOptions.builder(root.toString(), APP_ID).build();
  }

  private TopologyTestDriver debeziumDriver(IngestOptions options) {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(TOPIC, Consumed.with(ConnectSerde.keys(new JsonConverter(), JSON), ConnectSerde.values(new JsonConverter(), JSON)))
        .process(MergeSink.toDelta(options));
    return new TopologyTestDriver(builder.build(), properties());
  }

  private static TestInputTopic<byte[], byte[]> debeziumInput(TopologyTestDriver driver) {
    return driver.createInputTopic(TOPIC, (topic, bytes) -> bytes, (topic, bytes) -> bytes);
  }

  private static Properties properties() {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "delta-sink-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    return properties;
  }

  private static TestRecord<byte[], byte[]> keyChangeDelete(long oldId, long newId) {
    return new TestRecord<>(key(oldId), KeyChangeEvents.deleteEnvelope(TOPIC, oldId), KeyChangeEvents.deleteHeaders(TOPIC, newId));
  }

  private static TestRecord<byte[], byte[]> keyChangeCreate(long oldId, long newId) {
    return new TestRecord<>(key(newId), KeyChangeEvents.createEnvelope(TOPIC, newId), KeyChangeEvents.createHeaders(TOPIC, oldId));
  }

  private static byte[] key(long id) {
    JsonConverter converter = new JsonConverter();
    converter.configure(JSON, true);
    return converter.fromConnectData(TOPIC, CustomerEvents.KEY, CustomerEvents.key(id));
  }

  private static byte[] envelope(Struct value) {
    JsonConverter converter = new JsonConverter();
    converter.configure(JSON, false);
    return converter.fromConnectData(TOPIC, CustomerEvents.VALUE, value);
  }

  private String table() {
    return root.resolve(TOPIC).toString();
  }

  private List<Row> rows() {
    return KernelTables.readRows(table());
  }

  private Optional<Long> txnVersion() {
    return KernelTables.txnVersion(table(), APP_ID + ":" + TOPIC + ":0");
  }
}
