package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DataFileRoundTripTest {
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"zstd", "snappy", "gzip", "lz4_raw", "uncompressed"})
  void everyTypeRoundTripsWithEveryCodec(String codec) throws IOException {
    String path = dir.resolve("all-" + codec + ".parquet").toString();
    WrittenFile file = write(path, AllTypes.SCHEMA, AllTypes.rows(), ParquetWriteOptions.defaults().withCompression(codec));

    assertThat(file.numRecords()).isEqualTo(AllTypes.rows().size());
    assertThat(file.sizeBytes()).isEqualTo(Files.size(Path.of(path)));
    assertThat(file.path()).isEqualTo(path);
    assertThat(readAll(path, AllTypes.SCHEMA)).containsExactlyElementsOf(AllTypes.rows());
    assertThat(DataFileReader.rowCount(storage, path)).isEqualTo(AllTypes.rows().size());
  }

  @Test
  void projectionReturnsRequestedColumnsInRequestedOrder() throws IOException {
    String path = dir.resolve("p.parquet").toString();
    write(path, AllTypes.SCHEMA, AllTypes.rows(), ParquetWriteOptions.defaults());

    StructType projection = AllTypes.SCHEMA.select(List.of("str", "id"));
    List<Row> expected = new ArrayList<>();
    for (Row row : AllTypes.rows()) {
      expected.add(Row.of(row.get(7), row.get(0)));
    }
    assertThat(readAll(path, projection)).containsExactlyElementsOf(expected);
  }

  @Test
  void columnsMissingFromTheFileReadAsNull() throws IOException {
    StructType written = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("st", StructType.of(new StructField("a", PrimitiveType.INTEGER, true)), true));
    String path = dir.resolve("old.parquet").toString();
    write(path, written, List.of(Row.of(1L, Row.of(10)), Row.of(2L, null)), ParquetWriteOptions.defaults());

    // The table later gained a top-level column and a nested field.
    StructType evolved = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("st", StructType.of(
            new StructField("a", PrimitiveType.INTEGER, true),
            new StructField("b", PrimitiveType.STRING, true)), true),
        new StructField("added", PrimitiveType.STRING, true));
    assertThat(readAll(path, evolved)).containsExactly(Row.of(1L, Row.of(10, null), null), Row.of(2L, null, null));

    // Only new fields of a struct: the struct's nullness still comes from the file.
    StructType onlyNewNested = StructType.of(new StructField("st", StructType.of(
        new StructField("b", PrimitiveType.STRING, true)), true));
    assertThat(readAll(path, onlyNewNested)).containsExactly(Row.of(Row.of((Object) null)), Row.of((Object) null));

    // No column of the projection is in the file: one all-null row per physical row.
    StructType onlyNew = StructType.of(new StructField("added", PrimitiveType.STRING, true));
    assertThat(readAll(path, onlyNew)).containsExactly(Row.of((Object) null), Row.of((Object) null));
  }

  @Test
  void namesMatchIgnoringCaseWhenNoExactMatch() throws IOException {
    StructType written = StructType.of(new StructField("CustomerId", PrimitiveType.LONG, false));
    String path = dir.resolve("case.parquet").toString();
    write(path, written, List.of(Row.of(5L)), ParquetWriteOptions.defaults());

    StructType read = StructType.of(new StructField("customerid", PrimitiveType.LONG, false));
    assertThat(readAll(path, read)).containsExactly(Row.of(5L));
  }

  @Test
  void manyRowGroupsKeepPhysicalOrder() throws IOException {
    StructType schema = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("name", PrimitiveType.STRING, true));
    List<Row> rows = new ArrayList<>();
    for (long i = 0; i < 20_000; i++) {
      rows.add(Row.of(i * 7919 % 20_000, i % 3 == 0 ? null : "name-" + (i % 50)));
    }
    String path = dir.resolve("groups.parquet").toString();
    // Tiny row groups and pages: several row groups, dictionary and plain pages.
    ParquetWriteOptions small = new ParquetWriteOptions("snappy", 16 * 1024, 1024);
    WrittenFile file = write(path, schema, rows, small);

    assertThat(readAll(path, schema)).containsExactlyElementsOf(rows);
    assertThat(file.numRecords()).isEqualTo(20_000);
    assertThat(org.apache.parquet.hadoop.ParquetFileReader.open(storage.parquetInput(path)).getRowGroups())
        .hasSizeGreaterThan(1);
  }

  @Test
  void decimalsAtEveryPrecisionBoundary() throws IOException {
    StructType schema = StructType.of(
        new StructField("d9", new DecimalType(9, 0), true),
        new StructField("d10", new DecimalType(10, 3), true),
        new StructField("d18", new DecimalType(18, 18), true),
        new StructField("d19", new DecimalType(19, 2), true),
        new StructField("d38", new DecimalType(38, 0), true));
    List<Row> rows = List.of(
        Row.of(new BigDecimal("999999999"), new BigDecimal("9999999.999"), new BigDecimal("0.999999999999999999"),
            new BigDecimal("99999999999999999.99"), new BigDecimal("9".repeat(38))),
        Row.of(new BigDecimal("-999999999"), new BigDecimal("-9999999.999"), new BigDecimal("-0.999999999999999999"),
            new BigDecimal("-99999999999999999.99"), new BigDecimal("-" + "9".repeat(38))),
        Row.of(new BigDecimal("-1"), new BigDecimal("-0.001"), new BigDecimal("0E-18"), new BigDecimal("-0.01"),
            new BigDecimal("-1")));
    String path = dir.resolve("dec.parquet").toString();
    write(path, schema, rows, ParquetWriteOptions.defaults());
    assertThat(readAll(path, schema)).containsExactlyElementsOf(rows);
  }

  @Test
  void decimalsAreStoredAtTheColumnScale() throws IOException {
    StructType schema = StructType.of(new StructField("amount", new DecimalType(12, 2), true));
    String path = dir.resolve("scale.parquet").toString();
    write(path, schema, List.of(Row.of(new BigDecimal("1.5"))), ParquetWriteOptions.defaults());
    assertThat(readAll(path, schema)).containsExactly(Row.of(new BigDecimal("1.50")));
  }

  @Test
  void rowsThatDoNotFitFailTheWriterAndCloseDeletesTheFile() throws IOException {
    StructType schema = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("amount", new DecimalType(5, 2), true),
        new StructField("xs", new ArrayType(PrimitiveType.INTEGER, false), true),
        new StructField("m", new MapType(PrimitiveType.STRING, PrimitiveType.STRING, false), true));
    assertRejected(schema, Row.of(null, null, null, null), "column 'id' is not nullable");
    assertRejected(schema, Row.of(1, null, null, null), "column 'id' of type long cannot hold a value of java.lang.Integer");
    assertRejected(schema, Row.of(1L, new BigDecimal("1.234"), null, null), "without rounding");
    assertRejected(schema, Row.of(1L, new BigDecimal("1234.5"), null, null), "6 digits");
    assertRejected(schema, Row.of(1L, null, java.util.Arrays.asList(1, null), null), "does not allow null elements");
    assertRejected(schema, Row.of(1L, null, null, AllTypes.orderedMap("k", null)), "does not allow null values");
    assertRejected(schema, Row.of(1L, null), "row has 2 values but the schema has 4 columns");
  }

  private void assertRejected(StructType schema, Row row, String message) throws IOException {
    String path = dir.resolve("bad.parquet").toString();
    DataFileWriter writer = DataFileWriter.open(storage, path, schema, ParquetWriteOptions.defaults());
    assertThatThrownBy(() -> writer.write(row)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class).hasMessageContaining("FAILED");
    writer.close();
    assertThat(Files.exists(Path.of(path))).isFalse();
  }

  @Test
  void closeWithoutFinishDeletesThePartialFile() throws IOException {
    String path = dir.resolve("aborted.parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(storage, path, AllTypes.SCHEMA, ParquetWriteOptions.defaults())) {
      writer.write(AllTypes.rows().get(0));
    }
    assertThat(Files.exists(Path.of(path))).isFalse();
  }

  @Test
  void bytesWrittenGrowsWithTheData() throws IOException {
    StructType schema = StructType.of(new StructField("v", PrimitiveType.LONG, false));
    String path = dir.resolve("grow.parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(storage, path, schema,
        new ParquetWriteOptions("uncompressed", 64 * 1024, 8 * 1024))) {
      for (long i = 0; i < 100_000; i++) {
        writer.write(Row.of(i * 1_000_003L));
      }
      long during = writer.bytesWritten();
      // 100k distinct longs of 8 bytes, plain encoded: at least 800 KB (approximate, never far below).
      assertThat(during).isGreaterThan(700_000);
      WrittenFile file = writer.finish();
      assertThat(writer.bytesWritten()).isEqualTo(file.sizeBytes());
    }
  }

  private WrittenFile write(String path, StructType schema, List<Row> rows, ParquetWriteOptions options)
      throws IOException {
    try (DataFileWriter writer = DataFileWriter.open(storage, path, schema, options)) {
      for (Row row : rows) {
        writer.write(row);
      }
      return writer.finish();
    }
  }

  private List<Row> readAll(String path, StructType schema) throws IOException {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = DataFileReader.read(storage, path, schema)) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }
}
