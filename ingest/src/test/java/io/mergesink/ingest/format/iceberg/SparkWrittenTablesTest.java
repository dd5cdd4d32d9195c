package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.IcebergTables;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ByteBuffers;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writing into Iceberg tables Spark wrote ({@code shared/fixtures/iceberg}: v2 position deletes, v3
 * deletion vectors replaced over several commits, copy-on-write, partition transforms with an
 * evolved spec, schema evolution, identifier fields, equality deletes of another engine). Each
 * table is first read with Iceberg's reader and checked against the rows Spark listed; then two
 * change sets update rows in Spark's files and in the sink's own, delete some and insert others,
 * and after each the table read by Iceberg's reader equals the model.
 */
@ResourceLock("iceberg-fixtures")
class SparkWrittenTablesTest {
  /** Iceberg metadata holds absolute paths: the tables must sit where Spark wrote them. */
  private static final Path WAREHOUSE = Path.of("/tmp/mergesink-fixtures/iceberg/warehouse");
  private static final Path FIXTURES = Path.of("../../shared/fixtures/iceberg");
  private static final KafkaPartition PARTITION = new KafkaPartition("pg.changes", 0);
  private static final String POSITION = "sink:pg.changes:0";

  @ParameterizedTest
  @ValueSource(strings = {"v2_position_deletes", "v3_deletion_vectors", "v2_copy_on_write", "partitioned_transforms",
      "schema_evolution", "identifier_fields", "equality_deletes"})
  void changesLandInATableSparkWroteAndItsReaderSeesEachKeysCurrentRow(String name) throws Exception {
    copyFixtures();
    Table table = IcebergTables.load(WAREHOUSE.toString(), "db", name);
    Map<Long, Row> model = byId(table, IcebergTables.readRows(table));
    assertThat(model.keySet()).as("the rows Spark listed").containsExactlyInAnyOrderElementsOf(expectedIds(name));

    IngestOptions options = IngestOptions.builder(WAREHOUSE.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("db/${source.table}").build();
    try (IcebergFormat format = new IcebergFormat(options)) {
      FormatTable sink = format.open("db/" + name, List.of("id"), List.of(PARTITION)).orElseThrow();
      List<Long> ids = new ArrayList<>(model.keySet());
      long next = ids.get(ids.size() - 1) + 1;

      commit(table, sink, model, ids.subList(0, ids.size() / 2), ids.subList(ids.size() / 2, ids.size() / 2 + 5), next, "first",
          TxnChange.first(10));
      table.refresh();
      assertEqual(byId(table, IcebergTables.readRows(table)), model, "after the first change set");

      List<Long> again = new ArrayList<>(model.keySet());
      commit(table, sink, model, again.subList(0, again.size() / 4), again.subList(again.size() - 3, again.size()), next + 3,
          "second", TxnChange.from(10, 20));
      table.refresh();
      assertEqual(byId(table, IcebergTables.readRows(table)), model, "after the second change set");
    }
    table.refresh();
    assertThat(IcebergTables.positions(table)).containsExactly(Map.entry(POSITION, 20L));
    assertThat(table.currentSnapshot().addedDeleteFiles(table.io())).noneMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES);
  }

  /**
   * Updates rows of {@code updated} (their first string column becomes {@code <label>_<id>}), deletes
   * {@code deleted}, inserts three rows from {@code firstNew} on (copies of the first updated row),
   * and applies the same to {@code model}.
   */
  private static void commit(Table table, FormatTable sink, Map<Long, Row> model, List<Long> updated, List<Long> deleted, long firstNew,
      String label, TxnChange position) throws Exception {
    table.refresh();
    Types.StructType struct = table.schema().asStruct();
    int idColumn = struct.fields().indexOf(struct.field("id"));
    int textColumn = firstStringColumn(struct);
    ChangeSet.Builder changes = ChangeSet.builder();
    List<Row> upserts = new ArrayList<>();
    for (long id : List.copyOf(updated)) {
      Object[] values = model.get(id).toArray();
      values[textColumn] = label + "_" + id;
      upserts.add(Row.of(values));
    }
    for (long id = firstNew; id < firstNew + 3; id++) {
      Object[] values = model.get(updated.get(0)).toArray();
      values[idColumn] = id;
      values[textColumn] = label + "_new_" + id;
      upserts.add(Row.of(values));
    }
    for (Row row : upserts) {
      changes.upsert(toEngine(struct, row));
      model.put((Long) row.get(idColumn), row);
    }
    for (long id : List.copyOf(deleted)) {
      changes.delete(Row.of(id));
      model.remove(id);
    }
    sink.commit(changes.txn(POSITION, position).build());
  }

  /** The rows that differ, by id, rather than two whole tables. */
  private static void assertEqual(Map<Long, Row> actual, Map<Long, Row> model, String when) {
    Map<Long, String> differences = new TreeMap<>();
    model.forEach((id, row) -> {
      if (!row.equals(actual.get(id))) {
        differences.put(id, "expected " + row + ", read " + actual.get(id));
      }
    });
    actual.keySet().stream().filter(id -> !model.containsKey(id)).forEach(id -> differences.put(id, "extra " + actual.get(id)));
    assertThat(differences).as(when).isEmpty();
  }

  private static int firstStringColumn(Types.StructType struct) {
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).type().typeId() == org.apache.iceberg.types.Type.TypeID.STRING) {
        return i;
      }
    }
    throw new IllegalStateException("no string column in " + struct);
  }

  /** A row of Iceberg generic values as the engine holds it (the test's own conversion, not the sink's). */
  private static Row toEngine(Types.StructType struct, Row generic) {
    Object[] values = generic.toArray();
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      if (value instanceof LocalDate date) {
        values[i] = (int) date.toEpochDay();
      } else if (value instanceof OffsetDateTime zoned) {
        values[i] = ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), zoned);
      } else if (value instanceof LocalDateTime local) {
        values[i] = ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), local);
      } else if (value instanceof ByteBuffer bytes) {
        values[i] = ByteBuffers.toByteArray(bytes);
      }
    }
    return Row.of(values);
  }

  private static Map<Long, Row> byId(Table table, List<Row> rows) {
    Types.StructType struct = table.schema().asStruct();
    int id = struct.fields().indexOf(struct.field("id"));
    Map<Long, Row> byId = new TreeMap<>();
    for (Row row : rows) {
      assertThat(byId.put((Long) row.get(id), row)).as("one live row per id").isNull();
    }
    return byId;
  }

  private static List<Long> expectedIds(String name) throws IOException {
    try (Stream<String> lines = Files.lines(FIXTURES.resolve(name + ".expected.csv"))) {
      return lines.skip(1).map(line -> Long.parseLong(line.substring(0, line.indexOf(',')))).toList();
    }
  }

  private static void copyFixtures() throws IOException {
    if (Files.exists(WAREHOUSE)) {
      try (Stream<Path> paths = Files.walk(WAREHOUSE)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
    Path source = FIXTURES.resolve("warehouse");
    try (Stream<Path> paths = Files.walk(source)) {
      for (Path path : paths.toList()) {
        Path target = WAREHOUSE.resolve(source.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target);
        }
      }
    }
  }
}
