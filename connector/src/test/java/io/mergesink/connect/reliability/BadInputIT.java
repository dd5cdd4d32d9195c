package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.connect.testing.CustomerEvents;
import io.mergesink.core.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sweep of bad input (docs/design.md, "Bad input"): records whose value does not fit the table, with no
 * key, an unknown op, a value larger than the whole buffer, and source table names that try to leave
 * {@code table.root} ({@code ../../etc}, {@code a/b}, {@code ..}, unicode). Each gets its documented
 * behaviour: the dead letter queue (with {@code errors.tolerance=all}) or a task failure naming the
 * record; a value larger than the buffer is committed on its own; table names are sanitised. Never a
 * corrupt table, never a file outside {@code table.root}. (Bytes that are not JSON fail in
 * Connect's converter, before the task: {@link ClusterFaultsIT}.)
 */
class BadInputIT {
  private static final Schema WRONG_VALUE = SchemaBuilder.struct().name("pg.public.customers.Value").optional()
      .field("id", Schema.INT64_SCHEMA)
      .field("balance", Schema.STRING_SCHEMA)
      .build();
  private static final Schema WRONG_ENVELOPE = SchemaBuilder.struct().name("pg.public.customers.Envelope")
      .field("before", WRONG_VALUE)
      .field("after", WRONG_VALUE)
      .field("source", CustomerEvents.VALUE.field("source").schema())
      .field("op", Schema.STRING_SCHEMA)
      .build();
  private static final long BUFFER_MAX_BYTES = 1024 * 1024;
  private static final int GOOD = 20;

  @TempDir Path dir;

  static Stream<Arguments> badRecords() {
    return Stream.of(
        Arguments.of("value of the wrong schema for the table", (Consumer<RecordLog>) BadInputIT::wrongSchema, "balance"),
        Arguments.of("no key", (Consumer<RecordLog>) log -> log.append(0, null, null, CustomerEvents.VALUE,
            CustomerEvents.upsert("c", 500, 1)), "no key"),
        Arguments.of("unknown op code", (Consumer<RecordLog>) log -> log.append(0, CustomerEvents.KEY, CustomerEvents.key(501),
            CustomerEvents.VALUE, CustomerEvents.upsert("c", 501, 1).put("op", "x")), "unknown Debezium op 'x'"));
  }

  @ParameterizedTest(name = "{0}: dead letter queue")
  @MethodSource("badRecords")
  void toleratedBadRecordGoesToTheDeadLetterQueue(String name, Consumer<RecordLog> bad, String problem) {
    RecordLog log = goodBadGood(bad);
    TaskDriver task = new TaskDriver("task-0", Workloads.with(config(), "errors.tolerance", "all"), log, new HashMap<>());
    task.open(log.topicPartitions());
    task.runToEnd(100, 100);
    assertThat(task.context().deadLettered()).extracting(SinkRecord::kafkaOffset).containsExactly((long) GOOD);
    task.stop();
    TableAudit.check("bad input, tolerated: " + name, root().resolve("public/customers"), log.model(), log.endOffsets(),
        Workloads.CONNECTOR);
    assertNothingOutsideRoot();
  }

  @ParameterizedTest(name = "{0}: task fails naming the record")
  @MethodSource("badRecords")
  void badRecordFailsTheTaskNamingIt(String name, Consumer<RecordLog> bad, String problem) {
    RecordLog log = goodBadGood(bad);
    TaskDriver task = new TaskDriver("task-0", config(), log, new HashMap<>());
    task.open(log.topicPartitions());
    assertThatThrownBy(() -> task.runToEnd(100, 100)).isInstanceOf(ConnectException.class)
        .hasMessageContaining("topic " + Workloads.TOPIC).hasMessageContaining("partition 0")
        .hasMessageContaining("offset " + GOOD).hasMessageContaining(problem);
    task.stop();
    Map<Long, Row> before = new HashMap<>();
    log.model().forEach((id, row) -> {
      if (id < GOOD) {
        before.put(id, row);
      }
    });
    TableAudit.check("bad input, not tolerated: " + name, root().resolve("public/customers"), before,
        Map.of(new TopicPartition(Workloads.TOPIC, 0), (long) GOOD), Workloads.CONNECTOR);
  }

  @Test
  void valueLargerThanTheWholeBufferIsCommittedOnItsOwn() {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    for (long id = 0; id < GOOD; id++) {
      log.upsert(id);
    }
    String huge = "x".repeat((int) (2 * BUFFER_MAX_BYTES));
    Struct event = CustomerEvents.upsert("c", 1_000, 1);
    event.getStruct("after").put("name", huge);
    log.append(0, CustomerEvents.KEY, CustomerEvents.key(1_000), CustomerEvents.VALUE, event);
    for (long id = GOOD; id < 2 * GOOD; id++) {
      log.upsert(id);
    }
    TaskDriver task = new TaskDriver("task-0", config(), log, new HashMap<>());
    task.open(log.topicPartitions());
    task.runToEnd(100, 100);
    task.stop();

    Map<Long, Row> expected = new HashMap<>(log.model());
    Row row = CustomerEvents.expectedRow(1_000, 1);
    expected.put(1_000L, Row.of(row.get(0), huge, row.get(2), row.get(3)));
    TableAudit.check("bad input: value larger than buffer.max.bytes", root().resolve("public/customers"), expected,
        log.endOffsets(), Workloads.CONNECTOR);
  }

  @Test
  void sourceTableNamesCannotLeaveTheTableRoot() {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    List<String> names = List.of("../../etc", "a/b", "..", ".", "kundën_客户", "/abs", "c:\\\\windows");
    long id = 0;
    for (String name : names) {
      Struct event = CustomerEvents.upsert("c", id, 1);
      event.getStruct("source").put("table", name);
      log.append(0, CustomerEvents.KEY, CustomerEvents.key(id++), CustomerEvents.VALUE, event);
    }
    TaskDriver task = new TaskDriver("task-0", Workloads.with(config(), "errors.tolerance", "all"), log, new HashMap<>());
    task.open(log.topicPartitions());
    task.runToEnd(100, 100);
    task.stop();

    assertNothingOutsideRoot();
    List<Path> tables;
    try (Stream<Path> logs = Files.walk(root())) {
      tables = logs.filter(path -> path.getFileName().toString().equals("_delta_log")).map(Path::getParent).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long rows = tables.stream().mapToLong(table -> io.mergesink.core.testing.KernelTables.readRows(table.toString()).size()).sum();
    assertThat(task.context().deadLettered()).isEmpty();
    assertThat(tables).as("one sanitised table under the root per source table name").hasSize(names.size());
    assertThat(rows).as("every record in its table").isEqualTo(names.size());
    System.out.printf("RELIABILITY scenario=bad table names tables=%s%n", tables.stream().map(root()::relativize).toList());
  }

  private static void wrongSchema(RecordLog log) {
    Struct source = CustomerEvents.upsert("c", 502, 1).getStruct("source");
    Struct after = new Struct(WRONG_VALUE).put("id", 502L).put("balance", "a lot");
    log.append(0, CustomerEvents.KEY, CustomerEvents.key(502), WRONG_ENVELOPE,
        new Struct(WRONG_ENVELOPE).put("after", after).put("source", source).put("op", "c"));
  }

  private static RecordLog goodBadGood(Consumer<RecordLog> bad) {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    for (long id = 0; id < GOOD; id++) {
      log.upsert(id);
    }
    bad.accept(log);
    for (long id = GOOD; id < 2 * GOOD; id++) {
      log.upsert(id);
    }
    return log;
  }

  private Path root() {
    return dir.resolve("a/b/root");
  }

  private Map<String, String> config() {
    Map<String, String> config = Workloads.localConfig(root(), 1_000);
    config.put("table.name.format", "${source.schema}/${source.table}");
    config.put("buffer.max.bytes", Long.toString(BUFFER_MAX_BYTES));
    return config;
  }

  private void assertNothingOutsideRoot() {
    try (Stream<Path> files = Files.walk(dir)) {
      assertThat(files.filter(Files::isRegularFile).filter(path -> !path.startsWith(root())).toList())
          .as("files outside table.root " + root()).isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
