package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file written before its columns were widened reads as the wider types (PROTOCOL.md, "Reader
 * Requirements for Type Widening"), for every widening Delta allows; the Spark fixture
 * {@code type-widening-table} covers int → long, float → double and decimal precision
 * (FixtureScanTest).
 */
class WidenedReadTest {
  private static final StructType WRITTEN = StructType.of(
      new StructField("b", PrimitiveType.BYTE, true),
      new StructField("s", PrimitiveType.SHORT, true),
      new StructField("i", PrimitiveType.INTEGER, true),
      new StructField("l", PrimitiveType.LONG, true),
      new StructField("f", PrimitiveType.FLOAT, true),
      new StructField("day", PrimitiveType.DATE, true),
      new StructField("dec", new DecimalType(5, 2), true));
  private static final Row ROW = Row.of((byte) -7, (short) 300, 70_000, 1L << 40, 0.5f, 19_000, new BigDecimal("-123.45"));

  @TempDir Path dir;

  @Test
  void everyAllowedWideningReadsTheOldValue() throws IOException {
    String path = dir.resolve("old.parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(new LocalStorage(), path, WRITTEN, ParquetWriteOptions.defaults())) {
      writer.write(ROW);
      writer.write(Row.of(new Object[WRITTEN.size()]));
      writer.finish();
    }

    assertThat(readAs(path, "b", PrimitiveType.SHORT)).isEqualTo((short) -7);
    assertThat(readAs(path, "b", PrimitiveType.INTEGER)).isEqualTo(-7);
    assertThat(readAs(path, "b", PrimitiveType.LONG)).isEqualTo(-7L);
    assertThat(readAs(path, "b", PrimitiveType.DOUBLE)).isEqualTo(-7.0);
    assertThat(readAs(path, "b", new DecimalType(12, 2))).isEqualTo(new BigDecimal("-7.00"));
    assertThat(readAs(path, "s", PrimitiveType.INTEGER)).isEqualTo(300);
    assertThat(readAs(path, "s", PrimitiveType.DOUBLE)).isEqualTo(300.0);
    assertThat(readAs(path, "i", PrimitiveType.LONG)).isEqualTo(70_000L);
    assertThat(readAs(path, "i", PrimitiveType.DOUBLE)).isEqualTo(70_000.0);
    assertThat(readAs(path, "i", new DecimalType(10, 0))).isEqualTo(new BigDecimal("70000"));
    assertThat(readAs(path, "l", new DecimalType(22, 2))).isEqualTo(new BigDecimal("1099511627776.00"));
    assertThat(readAs(path, "f", PrimitiveType.DOUBLE)).isEqualTo(0.5);
    assertThat(readAs(path, "day", PrimitiveType.TIMESTAMP_NTZ)).isEqualTo(19_000L * 86_400_000_000L);
    assertThat(readAs(path, "dec", new DecimalType(7, 2))).isEqualTo(new BigDecimal("-123.45"));
    assertThat(readAs(path, "dec", new DecimalType(8, 4))).isEqualTo(new BigDecimal("-123.4500"));
  }

  /** The first value of {@code column} read as {@code type}, after checking the widening is one Delta allows and the null row stays null. */
  private static Object readAs(String path, String column, DataType type) throws IOException {
    assertThat(TypeChanges.isSupported(WRITTEN.field(column).orElseThrow().type(), type)).isTrue();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = DataFileReader.read(new LocalStorage(), path, StructType.of(new StructField(column, type, true)))) {
      it.forEachRemaining(rows::add);
    }
    assertThat(rows).hasSize(2);
    assertThat(rows.get(1).get(0)).isNull();
    return rows.get(0).get(0);
  }
}
