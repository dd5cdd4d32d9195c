package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeSet;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading rows by position: the rows at the positions asked for, across row groups and pages
 * skipped and read, only the projected columns (whose first column decides the pages read).
 */
class ReadAtTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("qty", PrimitiveType.INTEGER, true));
  private static final int ROWS = 20_000;

  @TempDir Path dir;
  private final LocalStorage storage = new LocalStorage();

  /** Several row groups of several pages; one row group of many pages (read through the offset index). */
  @ParameterizedTest
  @CsvSource({"16384, 4096, 4, 1", "67108864, 1024, 1, 4"})
  void rowsAtPositions(long rowGroupBytes, int pageBytes, int minRowGroups, int minPages) throws IOException {
    String path = dir.resolve("groups.parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(storage, path, SCHEMA, new ParquetWriteOptions("uncompressed", rowGroupBytes, pageBytes))) {
      for (long i = 0; i < ROWS; i++) {
        writer.write(row(i));
      }
      writer.finish();
    }
    try (ParquetFileReader reader = DataFileReader.open(storage, path)) {
      assertThat(reader.getRowGroups()).hasSizeGreaterThanOrEqualTo(minRowGroups);
      assertThat(reader.readOffsetIndex(reader.getRowGroups().get(0).getColumns().get(2)).getPageCount())
          .as("pages of the first projected column in the first row group").isGreaterThanOrEqualTo(minPages);
    }
    long seed = System.nanoTime();
    Random random = new Random(seed);
    TreeSet<Long> wanted = new TreeSet<>();
    wanted.add(0L);
    wanted.add(ROWS - 1L);
    for (int i = 0; i < 40; i++) {
      wanted.add((long) random.nextInt(ROWS));
    }
    long[] positions = wanted.stream().mapToLong(Long::longValue).toArray();
    StructType projection = SCHEMA.select(java.util.List.of("qty", "id"));

    Row[] rows = DataFileReader.readAt(storage, path, projection, ColumnMatch.BY_NAME, positions);

    for (int i = 0; i < positions.length; i++) {
      Row full = row(positions[i]);
      assertThat(rows[i]).as("seed=%d position %d", seed, positions[i]).isEqualTo(Row.of(full.get(2), full.get(0)));
    }
    assertThatThrownBy(() -> DataFileReader.readAt(storage, path, projection, ColumnMatch.BY_NAME, new long[] {5, ROWS}))
        .isInstanceOf(IOException.class).hasMessageContaining("has " + ROWS + " rows, row " + ROWS + " was asked for");
  }

  private static Row row(long i) {
    return Row.of(i, i % 7 == 0 ? null : "name-" + i, (int) (i * 31 % 1000));
  }
}
