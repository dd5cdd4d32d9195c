package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.connect.reliability.Matrix.Case;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.testing.Expected;
import io.mergesink.ingest.testing.TableAudit;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A sweep of bad input (docs/design.md, "Bad input"): records whose value does not fit the table, with no
 * key (bad for upsert tables only: append tables need no key), an unknown op, a value larger than
 * the whole buffer, and source table names that try to leave {@code table.root} ({@code ../../etc},
 * {@code a/b}, {@code ..}, unicode). Each gets its documented behaviour: the dead letter queue (with
 * {@code errors.tolerance=all}) or a task failure naming the record; a value larger than the buffer
 * is committed on its own; table names are sanitised. Never a corrupt table, never a file outside
 * {@code table.root}. (Bytes that are not JSON fail in Connect's converter, before the task:
 * {@link ClusterFaultsIT}.)
 */
class BadInputIT {
  private static final CustomerTable CUSTOMERS = CustomerTable.standard();
  private static final Schema WRONG_VALUE = SchemaBuilder.struct().name("pg.public.customers.Value").optional()
      .field("id", Schema.INT64_SCHEMA)
      .field("balance", Schema.STRING_SCHEMA)
      .build();
  private static final Schema WRONG_ENVELOPE = SchemaBuilder.struct().name("pg.public.customers.Envelope")
      .field("before", WRONG_VALUE)
      .field("after", WRONG_VALUE)
      .field("source", CUSTOMERS.envelopeSchema().field("source").schema())
      .field("op", Schema.STRING_SCHEMA)
      .build();
  private static final long BUFFER_MAX_BYTES = 1024 * 1024;
  private static final int GOOD = 20;

  @TempDir Path dir;

  // Plain cells only: bad input is refused when it is decoded, before any CDC mode sees it.
  static Stream<Arguments> badRecords() {
    return Matrix.across(List.of(
        Case.in(Cell::isPlain, "value of the wrong schema for the table", (Consumer<RecordLog>) BadInputIT::wrongSchema, "balance"),
        Case.in(cell -> !cell.isAppend() && cell.isPlain(), "no key", (Consumer<RecordLog>) log -> log.appendBad(0, null, null,
            CUSTOMERS.envelopeSchema(), CUSTOMERS.upsert("c", 500, 1)), "no key"),
        Case.in(Cell::isPlain, "unknown op code", (Consumer<RecordLog>) log -> log.appendBad(0, CUSTOMERS.keySchema(), CUSTOMERS.key(501),
            CUSTOMERS.envelopeSchema(), CUSTOMERS.upsert("c", 501, 1).put("op", "x")), "unknown Debezium op 'x'")));
  }

  static Stream<Cell> appendCells() {
    return Matrix.cells(Cell.of(Cell.Layout.APPEND, Cell.Compaction.OFF), Cell::isAppend);
  }

  static Stream<Cell> largeValueCells() {
    return Matrix.cells(Cell.of(Cell.Layout.COPY_ON_WRITE, Cell.Compaction.FORCED), Cell::isPlain);
  }

  // Delta cells: the tables are found by their Delta logs
  static Stream<Cell> tableNameCells() {
    return Matrix.cells(Cell.of(Cell.Layout.DELETION_VECTORS, Cell.Compaction.OFF), cell -> cell.isPlain() && cell.isDelta());
  }

  @ParameterizedTest(name = "[{0}] {1}: dead letter queue", allowZeroInvocations = true)
  @MethodSource("badRecords")
  void toleratedBadRecordGoesToTheDeadLetterQueue(Cell cell, String name, Consumer<RecordLog> bad, String problem) {
    RecordLog log = goodBadGood(bad);
    TaskDriver task = new TaskDriver("task-0", Workloads.with(config(cell), "errors.tolerance", "all"), log, new HashMap<>());
    task.open(log.topicPartitions());
    task.runToEnd(100, 100);
    assertThat(task.context().deadLettered()).extracting(SinkRecord::kafkaOffset).containsExactly((long) GOOD);
    task.stop();
    MatrixAudit.check("bad input, tolerated: " + name, cell, table(cell), log, Workloads.CONNECTOR);
    assertNothingOutsideRoot();
  }

  @ParameterizedTest(name = "[{0}] {1}: task fails naming the record", allowZeroInvocations = true)
  @MethodSource("badRecords")
  void badRecordFailsTheTaskNamingIt(Cell cell, String name, Consumer<RecordLog> bad, String problem) {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    upsertRange(log, 0, GOOD);
    Expected<?> before = log.expected(cell);
    bad.accept(log);
    upsertRange(log, GOOD, 2 * GOOD);
    TaskDriver task = new TaskDriver("task-0", config(cell), log, new HashMap<>());
    task.open(log.topicPartitions());
    assertThatThrownBy(() -> task.runToEnd(100, 100)).isInstanceOf(ConnectException.class)
        .hasMessageContaining("topic " + Workloads.TOPIC).hasMessageContaining("partition 0")
        .hasMessageContaining("offset " + GOOD).hasMessageContaining(problem);
    task.stop();
    TableAudit.check(cell.tables(), "bad input, not tolerated: " + name + " [" + cell + "]", table(cell), before,
        Map.of(new TopicPartition(Workloads.TOPIC, 0), (long) GOOD), Workloads.CONNECTOR);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("appendCells")
  void recordWithoutKeyLandsInAnAppendTable(Cell cell) {
    RecordLog log = goodBadGood(withoutKey -> withoutKey.append(0, null, null, CUSTOMERS.envelopeSchema(),
        CUSTOMERS.upsert("c", 500, 1)));
    TaskDriver task = new TaskDriver("task-0", config(cell), log, new HashMap<>());
    task.open(log.topicPartitions());
    task.runToEnd(100, 100);
    task.stop();
    MatrixAudit.check("append: a record without a key", cell, table(cell), log, Workloads.CONNECTOR);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("largeValueCells")
  void valueLargerThanTheWholeBufferIsCommittedOnItsOwn(Cell cell) {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    upsertRange(log, 0, GOOD);
    String huge = "x".repeat((int) (2 * BUFFER_MAX_BYTES));
    log.upsert(1_000, after -> after.put(CustomerTable.NAME, huge));
    upsertRange(log, GOOD, 2 * GOOD);
    TaskDriver task = new TaskDriver("task-0", config(cell), log, new HashMap<>());
    task.open(log.topicPartitions());
    task.runToEnd(100, 100);
    task.stop();

    MatrixAudit.check("bad input: value larger than buffer.max.bytes", cell, table(cell), log, Workloads.CONNECTOR);
  }

  @ParameterizedTest(name = "[{0}]", allowZeroInvocations = true)
  @MethodSource("tableNameCells")
  void sourceTableNamesCannotLeaveTheTableRoot(Cell cell) {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    List<String> names = List.of("../../etc", "a/b", "..", ".", "kundën_客户", "/abs", "c:\\\\windows");
    long id = 0;
    for (String name : names) {
      Struct event = CUSTOMERS.upsert("c", id, 1);
      event.getStruct("source").put("table", name);
      log.append(0, CUSTOMERS.keySchema(), CUSTOMERS.key(id++), CUSTOMERS.envelopeSchema(), event);
    }
    TaskDriver task = new TaskDriver("task-0", Workloads.with(config(cell), "errors.tolerance", "all"), log, new HashMap<>());
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
    long rows = tables.stream().mapToLong(table -> KernelTables.readRows(table.toString()).size()).sum();
    assertThat(task.context().deadLettered()).isEmpty();
    assertThat(tables).as("one sanitised table under the root per source table name").hasSize(names.size());
    assertThat(rows).as("every record in its table").isEqualTo(names.size());
    System.out.printf("RELIABILITY scenario=bad table names [%s] tables=%s%n", cell, tables.stream().map(root()::relativize).toList());
  }

  private static void wrongSchema(RecordLog log) {
    Struct source = CUSTOMERS.upsert("c", 502, 1).getStruct("source");
    Struct after = new Struct(WRONG_VALUE).put("id", 502L).put("balance", "a lot");
    log.appendBad(0, CUSTOMERS.keySchema(), CUSTOMERS.key(502), WRONG_ENVELOPE,
        new Struct(WRONG_ENVELOPE).put("after", after).put("source", source).put("op", "c"));
  }

  private static RecordLog goodBadGood(Consumer<RecordLog> bad) {
    RecordLog log = new RecordLog(Workloads.TOPIC, 1);
    upsertRange(log, 0, GOOD);
    bad.accept(log);
    upsertRange(log, GOOD, 2 * GOOD);
    return log;
  }

  private static void upsertRange(RecordLog log, long from, long to) {
    for (long id = from; id < to; id++) {
      log.upsert(id);
    }
  }

  private Path root() {
    return dir.resolve("a/b/root");
  }

  private String table(Cell cell) {
    return cell.tables().location(root(), "public/customers");
  }

  private Map<String, String> config(Cell cell) {
    Map<String, String> config = Workloads.localConfig(root(), 1_000);
    config.put("table.name.format", "${source.schema}/${source.table}");
    config.put("buffer.max.bytes", Long.toString(BUFFER_MAX_BYTES));
    return cell.apply(config);
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
