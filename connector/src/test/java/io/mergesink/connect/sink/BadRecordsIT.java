package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.testing.KernelTables;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.errors.DeadLetterQueueReporter;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records that cannot be written: with {@code errors.tolerance=all} they go to the dead letter
 * queue (exactly they, unchanged, with headers naming their topic, partition and offset), the
 * task's metric counts them and everything else lands; without it the task fails naming topic,
 * partition and offset.
 */
class BadRecordsIT {
  private static final String TOPIC = MergeSinkIT.TOPIC;
  private static final String DLQ = "mergesink-dlq";
  private static final Schema WRONG_VALUE = SchemaBuilder.struct().name("pg.public.customers.Flat")
      .field("id", Schema.INT64_SCHEMA)
      .field("balance", Schema.STRING_SCHEMA)
      .build();
  private static final Schema BAD_ENVELOPE = SchemaBuilder.struct().name("pg.public.customers.Envelope")
      .field("op", Schema.STRING_SCHEMA)
      .field("source", SchemaBuilder.struct().field("db", Schema.STRING_SCHEMA).build())
      .field("after", SchemaBuilder.struct().optional().field("id", Schema.INT64_SCHEMA).build())
      .build();

  @TempDir Path tables;
  private LocalConnect connect;

  @BeforeEach
  void startCluster() {
    connect = LocalConnect.start(1);
    connect.createTopic(TOPIC, 1);
  }

  @AfterEach
  void stopCluster() {
    connect.close();
  }

  @Test
  void badRecordsGoToTheDeadLetterQueueAndTheRestLands() {
    connect.createTopic(DLQ, 1);
    try (ChangeStream stream = new ChangeStream(connect, TOPIC, 1)) {
      for (long id = 0; id < 100; id++) {
        stream.upsert(id);
      }
      stream.flush();
      long unknownOp = connect.produce(TOPIC, 0, CustomerEvents.KEY, CustomerEvents.key(7), BAD_ENVELOPE, badEnvelope());
      long wrongType = connect.produce(TOPIC, 0, CustomerEvents.KEY, CustomerEvents.key(8), WRONG_VALUE,
          new Struct(WRONG_VALUE).put("id", 8L).put("balance", "a lot"));
      for (long id = 100; id < 150; id++) {
        stream.upsert(id);
      }
      stream.delete(3, true);
      stream.flush();

      Map<String, String> config = sinkConfig();
      config.put("errors.tolerance", "all");
      config.put("errors.deadletterqueue.topic.name", DLQ);
      config.put("errors.deadletterqueue.topic.replication.factor", "1");
      config.put("errors.deadletterqueue.context.headers.enable", "true");
      connect.startConnector(MergeSinkIT.CONNECTOR, config, 1);

      long end = connect.endOffsets(TOPIC).values().iterator().next();
      Await.until("the table to hold offset " + (end - 1), MergeSinkIT.CATCH_UP,
          () -> txnVersion().orElse(-1L) == end - 1);
      Map<Long, ConsumerRecord<byte[], byte[]>> source = new HashMap<>();
      connect.readRecords(TOPIC, (int) end).forEach(record -> source.put(record.offset(), record));
      Map<Long, ConsumerRecord<byte[], byte[]>> deadLettered = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> record : connect.readRecords(DLQ, 2)) {
        assertThat(header(record, DeadLetterQueueReporter.ERROR_HEADER_ORIG_TOPIC)).as("original topic").isEqualTo(TOPIC);
        assertThat(header(record, DeadLetterQueueReporter.ERROR_HEADER_ORIG_PARTITION)).as("original partition").isEqualTo("0");
        deadLettered.put(Long.parseLong(header(record, DeadLetterQueueReporter.ERROR_HEADER_ORIG_OFFSET)), record);
      }
      assertThat(deadLettered).as("the dead letter queue holds exactly the bad records, by original offset")
          .containsOnlyKeys(unknownOp, wrongType);
      deadLettered.forEach((offset, record) -> {
        assertThat(record.key()).as("key of the record at offset " + offset).isEqualTo(source.get(offset).key());
        assertThat(record.value()).as("value of the record at offset " + offset).isEqualTo(source.get(offset).value());
      });
      assertThat(connect.recordCount(DLQ)).as("nothing else in the dead letter queue").isEqualTo(2);
      assertThat(new HashSet<>(KernelTables.readRows(tablePath()))).as("the table holds the good records")
          .isEqualTo(new HashSet<>(stream.model().values()));
      assertThat(taskMetric("records-dlq-total")).as("records-dlq-total over JMX").isEqualTo(2.0);
      assertThat(taskMetric("commit-total")).as("commit-total over JMX").isInstanceOfSatisfying(Double.class,
          commits -> assertThat(commits).isGreaterThanOrEqualTo(1.0));
    }
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    assertThat(header).as("header " + name + " of the dead-lettered record").isNotNull();
    return new String(header.value(), StandardCharsets.UTF_8);
  }

  /** A metric of the sink task, as JMX shows it (Connect registers plugin metrics there). */
  private static Object taskMetric(String name) {
    try {
      javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
      for (javax.management.ObjectName bean : server.queryNames(new javax.management.ObjectName("kafka.connect:*"), null)) {
        if (bean.getKeyPropertyList().containsKey("connector") && bean.toString().contains("plugins")) {
          for (javax.management.MBeanAttributeInfo attribute : server.getMBeanInfo(bean).getAttributes()) {
            if (attribute.getName().equals(name)) {
              return server.getAttribute(bean, name);
            }
          }
        }
      }
      return null;
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void withoutToleranceTheTaskFailsNamingTheRecord() {
    long bad;
    try (ChangeStream stream = new ChangeStream(connect, TOPIC, 1)) {
      stream.upsert(1);
      stream.flush();
      bad = connect.produce(TOPIC, 0, CustomerEvents.KEY, CustomerEvents.key(7), BAD_ENVELOPE, badEnvelope());
    }
    connect.cluster().configureConnector(MergeSinkIT.CONNECTOR, sinkConfig());
    String trace = Await.until("the task to fail", MergeSinkIT.CATCH_UP, this::taskTrace, t -> t != null && !t.isEmpty());
    assertThat(trace).contains("topic " + TOPIC).contains("partition 0").contains("offset " + bad).contains("unknown Debezium op 'x'");
  }

  private static Struct badEnvelope() {
    return new Struct(BAD_ENVELOPE).put("op", "x")
        .put("source", new Struct(BAD_ENVELOPE.field("source").schema()).put("db", "shop"))
        .put("after", new Struct(BAD_ENVELOPE.field("after").schema()).put("id", 7L));
  }

  private String taskTrace() {
    ConnectorStateInfo status = connect.status(MergeSinkIT.CONNECTOR);
    return status.tasks().stream().filter(task -> "FAILED".equals(task.state())).map(ConnectorStateInfo.TaskState::trace)
        .findFirst().orElse(null);
  }

  private Map<String, String> sinkConfig() {
    Map<String, String> config = new java.util.HashMap<>(Map.of(
        "connector.class", io.mergesink.connect.MergeSinkConnector.class.getName(),
        "tasks.max", "1",
        "topics", TOPIC,
        "table.root", tables.toString(),
        "commit.interval.ms", "500"));
    return config;
  }

  private String tablePath() {
    return tables.resolve(TOPIC).toString();
  }

  private java.util.Optional<Long> txnVersion() {
    if (!tables.resolve(TOPIC).resolve("_delta_log").toFile().exists()) {
      return java.util.Optional.empty();
    }
    return KernelTables.txnVersion(tablePath(), MergeSinkIT.CONNECTOR + ":" + TOPIC + ":0");
  }
}
