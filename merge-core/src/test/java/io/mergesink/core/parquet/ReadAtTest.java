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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading rows by position: the rows at the positions asked for, across row groups skipped and read, only the projected columns. */
class ReadAtTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("qty", PrimitiveType.INTEGER, true));
  private static final int ROWS = 20_000;

  @TempDir Path dir;
  private final LocalStorage storage = new LocalStorage();

  @Test
  void rowsAtPositionsAcrossRowGroups() throws IOException {
    String path = dir.resolve("groups.parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(storage, path, SCHEMA, new ParquetWriteOptions("uncompressed", 16 * 1024, 4 * 1024))) {
      for (long i = 0; i < ROWS; i++) {
        writer.write(row(i));
      }
      writer.finish();
    }
    try (ParquetFileReader reader = DataFileReader.open(storage, path)) {
      assertThat(reader.getRowGroups()).as("the file must have several row groups for the test to mean anything").hasSizeGreaterThan(3);
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
