package io.mergesink.ingest.align;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowAlignerTest {
  private static final StructType TABLE = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", new DecimalType(12, 4), true),
      new StructField("scores", new ArrayType(PrimitiveType.LONG, true), true));

  @Test
  void reordersByNameFillsMissingNullablesAndReportsExtras() {
    StructType event = StructType.of(
        new StructField("name", PrimitiveType.STRING, true),
        new StructField("id", PrimitiveType.INTEGER, false),
        new StructField("added", PrimitiveType.BOOLEAN, true));
    RowAligner aligner = RowAligner.of("lake/t", event, TABLE);

    assertThat(aligner.extraColumns()).containsExactly(new StructField("added", PrimitiveType.BOOLEAN, true));
    assertThat(aligner.align(Row.of("n", 7, true))).isEqualTo(Row.of(7L, "n", null, null));
  }

  @Test
  void widensDecimalsAndArrayElementsAndPassesUnchanged() {
    StructType event = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("name", PrimitiveType.STRING, true),
        new StructField("amount", new DecimalType(10, 2), true),
        new StructField("scores", new ArrayType(PrimitiveType.SHORT, true), true));
    RowAligner aligner = RowAligner.of("lake/t", event, TABLE);

    Row aligned = aligner.align(Row.of(1L, Unchanged.VALUE, new BigDecimal("12.50"), List.of((short) 3)));
    assertThat(aligned).isEqualTo(Row.of(1L, Unchanged.VALUE, new BigDecimal("12.5000"), List.of(3L)));
  }

  @Test
  void errorsNameTableAndColumn() {
    StructType noId = StructType.of(new StructField("name", PrimitiveType.STRING, true));
    assertThatThrownBy(() -> RowAligner.of("lake/t", noId, TABLE)).isInstanceOf(SchemaMismatchException.class)
        .hasMessage("table lake/t: column 'id' (long, not null) is missing from the record, whose columns are [name]");

    StructType wrongType = StructType.of(new StructField("id", PrimitiveType.LONG, true),
        new StructField("name", PrimitiveType.LONG, true));
    RowAligner aligner = RowAligner.of("lake/t", wrongType, TABLE);
    assertThat(aligner.align(Row.of(1L, null))).isEqualTo(Row.of(1L, null, null, null));
    assertThatThrownBy(() -> aligner.align(Row.of(1L, 5L)))
        .hasMessage("table lake/t: column 'name' is string but the record has long");
    assertThatThrownBy(() -> aligner.align(Row.of(null, null)))
        .hasMessage("table lake/t: column 'id' is not nullable but the record has null");
  }

  @Test
  void narrowingIsNotWidening() {
    assertThat(RowAligner.converter(PrimitiveType.LONG, PrimitiveType.INTEGER)).isNull();
    assertThat(RowAligner.converter(new DecimalType(10, 4), new DecimalType(10, 2))).isNull();
    assertThat(RowAligner.converter(PrimitiveType.FLOAT, PrimitiveType.DOUBLE).apply(1.5f)).isEqualTo(1.5d);
  }
}
