package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Reads the Parquet files Spark 4.0 + Delta 4.0 wrote for the fixtures (see each fixture's
 * PROVENANCE.md): physical rows, no deletion vectors applied.
 */
class SparkFixtureReadTest {
  private static final StructType TYPES_SCHEMA = FixtureTables.TYPES_TABLE_SCHEMA;

  private static final StructType DV_SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", new DecimalType(12, 2), true),
      new StructField("active", PrimitiveType.BOOLEAN, true),
      new StructField("updated_at", PrimitiveType.TIMESTAMP, true));

  private final Storage storage = HadoopStorage.withDefaults();

  @Test
  void typesTableRowsMatchExpectedRowsAndProvenance() throws IOException {
    // EXPECTED_ROWS.csv row 1 (the table runs in UTC, so the CSV timestamps are UTC instants).
    Row one = Row.of(1, (byte) 1, (short) 2, 3L, 1.5f, 2.25, new BigDecimal("12345678901234567890.0123456789"),
        "héllo, \"world\"", new byte[] {0x00, (byte) 0xFF, 0x10}, true, AllTypes.days("2026-02-28"),
        AllTypes.micros("2026-03-01T12:34:56.789012Z"), AllTypes.microsNtz("2026-03-01T12:34:56.789012"),
        Arrays.asList("a", null, "c"), Row.of(7, "why"), AllTypes.orderedMap("k1", 1L, "k2", null));
    // EXPECTED_ROWS.csv row 2: all NULL but id (the CSV's {} for m is NULL, per PROVENANCE.md).
    Row two = Row.of(2, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    // PROVENANCE.md row 3, deleted by a DV in v2 but physically present.
    Row three = Row.of(3, (byte) -128, (short) -32768, Long.MIN_VALUE, -0.0f, 1e300,
        new BigDecimal("-0.0000000001"), "", new byte[0], false, 0,
        AllTypes.micros("1969-12-31T23:59:59.999999Z"), AllTypes.microsNtz("9999-12-31T23:59:59.999999"),
        List.of(), Row.of(null, null), AllTypes.orderedMap());

    String first = fixture("types-table", "part-00000-7bd5281f-77f6-4fd6-9f34-7a28f2f62869-c000.snappy.parquet");
    String second = fixture("types-table", "part-00001-f1a7b86c-6f57-4ebf-aa0c-fd5f2d69dcd8-c000.snappy.parquet");
    assertThat(readAll(first, TYPES_SCHEMA)).containsExactly(one);
    assertThat(readAll(second, TYPES_SCHEMA)).containsExactly(two, three);
    assertThat(DataFileReader.rowCount(storage, second)).isEqualTo(2);
  }

  @Test
  void typesTableProjectionOfNestedAndTimestampColumns() throws IOException {
    String second = fixture("types-table", "part-00001-f1a7b86c-6f57-4ebf-aa0c-fd5f2d69dcd8-c000.snappy.parquet");
    StructType projection = StructType.of(
        new StructField("ts", PrimitiveType.TIMESTAMP, true),
        new StructField("st", StructType.of(new StructField("y", PrimitiveType.STRING, true)), true),
        new StructField("id", PrimitiveType.INTEGER, false));
    assertThat(readAll(second, projection)).containsExactly(
        Row.of(null, null, 2),
        Row.of(AllTypes.micros("1969-12-31T23:59:59.999999Z"), Row.of((Object) null), 3));
  }

  @Test
  void dvTableFilesHoldEveryWrittenRowPhysically() throws IOException {
    List<Row> rows = new ArrayList<>();
    long footerRows = 0;
    for (String file : dataFiles("dv-table")) {
      rows.addAll(readAll(file, DV_SCHEMA));
      footerRows += DataFileReader.rowCount(storage, file);
    }
    assertThat(rows).hasSize((int) footerRows);

    // v1/v2 inserted ids 0..999 (each once, in the insert files); v4 rewrote ids ending in 7
    // (minus those v3 had deleted: none end in 3 and 7 both) into new files; v6 inserted 2000.
    Set<Long> ids = new HashSet<>();
    for (Row row : rows) {
      ids.add((Long) row.get(0));
    }
    for (long id = 0; id < 1000; id++) {
      assertThat(ids).contains(id);
    }
    assertThat(rows).contains(
        Row.of(0L, "name-0", new BigDecimal("0.00"), true, AllTypes.micros("2026-01-01T00:00:00Z")),
        Row.of(999L, "name-999", new BigDecimal("1248.75"), false, AllTypes.micros("2026-01-01T00:16:39Z")),
        Row.of(7L, "name-7-upd", new BigDecimal("9.75"), false, AllTypes.micros("2026-01-01T00:00:07Z")),
        Row.of(2000L, null, null, null, null));
    // Physical rows = 1000 inserted + 100 rewritten by the UPDATE + 1 inserted at v6.
    assertThat(rows).hasSize(1101);
  }

  @Test
  void keyColumnProjectionOfSparkFile() throws IOException {
    StructType key = StructType.of(new StructField("id", PrimitiveType.LONG, false));
    long count = 0;
    for (String file : dataFiles("dv-table")) {
      for (Row row : readAll(file, key)) {
        assertThat(row.size()).isEqualTo(1);
        assertThat(row.get(0)).isInstanceOf(Long.class);
        count++;
      }
    }
    assertThat(count).isEqualTo(1101);
  }

  private List<String> dataFiles(String table) throws IOException {
    try (Stream<Path> files = Files.list(fixtureDir(table))) {
      return files.filter(p -> p.getFileName().toString().startsWith("part-")).map(Path::toString).sorted().toList();
    }
  }

  private static Path fixtureDir(String table) {
    try {
      return Path.of(SparkFixtureReadTest.class.getResource("/fixtures/" + table).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String fixture(String table, String file) {
    return fixtureDir(table).resolve(file).toString();
  }

  private List<Row> readAll(String path, StructType schema) throws IOException {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = DataFileReader.read(storage, path, schema)) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }
}
