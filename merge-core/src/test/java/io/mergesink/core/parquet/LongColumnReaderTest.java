package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The direct column reader returns exactly what the row reader returns, or declines. */
class LongColumnReaderTest {
  private final LocalStorage storage = new LocalStorage();

  @Test
  void readsSparksBigintAndIntColumnsLikeTheRowReader() throws Exception {
    for (String file : dataFiles("dv-table")) {
      assertThat(direct(file, "id")).as(file).isEqualTo(viaRows(file, new StructField("id", PrimitiveType.LONG, false)));
    }
    for (String file : dataFiles("types-table")) {
      assertThat(direct(file, "id")).as(file).isEqualTo(viaRows(file, new StructField("id", PrimitiveType.INTEGER, false)));
    }
  }

  @Test
  void declinesInt96TimestampsAndMissingColumns() throws Exception {
    String file = dataFiles("types-table").get(0);
    assertThat(LongColumnReader.read(storage, file, field("ts"), ColumnMatch.BY_NAME, (row, value) -> {})).isFalse();
    assertThat(LongColumnReader.read(storage, file, field("no_such_column"), ColumnMatch.BY_NAME, (row, value) -> {})).isFalse();
  }

  private List<Long> direct(String file, String column) throws Exception {
    List<Long> values = new ArrayList<>();
    boolean read = LongColumnReader.read(storage, file, field(column), ColumnMatch.BY_NAME, (rowIndex, value) -> {
      assertThat(rowIndex).isEqualTo(values.size());
      values.add(value);
    });
    assertThat(read).isTrue();
    return values;
  }

  private List<Long> viaRows(String file, StructField column) throws Exception {
    List<Long> values = new ArrayList<>();
    try (CloseableIterator<Row> rows = DataFileReader.read(storage, file, StructType.of(column))) {
      rows.forEachRemaining(row -> values.add(((Number) row.get(0)).longValue()));
    }
    return values;
  }

  private static StructField field(String name) {
    return new StructField(name, PrimitiveType.LONG, true);
  }

  private static List<String> dataFiles(String table) throws Exception {
    try (Stream<Path> files = Files.list(FixtureTables.path(table))) {
      return files.map(Path::toString).filter(name -> name.endsWith(".parquet")).sorted().toList();
    }
  }
}
