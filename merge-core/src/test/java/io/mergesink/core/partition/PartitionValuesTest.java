package io.mergesink.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Partition values as PROTOCOL.md's "Partition Value Serialization" writes them, for every partition column type. */
class PartitionValuesTest {
  private static final List<DataType> TYPES = List.of(PrimitiveType.STRING, PrimitiveType.BOOLEAN, PrimitiveType.BYTE,
      PrimitiveType.SHORT, PrimitiveType.INTEGER, PrimitiveType.LONG, PrimitiveType.FLOAT, PrimitiveType.DOUBLE,
      new DecimalType(12, 2), PrimitiveType.DATE, PrimitiveType.TIMESTAMP, PrimitiveType.TIMESTAMP_NTZ, PrimitiveType.BINARY);

  @Test
  void nullAndEmptyAreNullForEveryType() {
    List<Object> parsed = new ArrayList<>();
    for (DataType type : TYPES) {
      parsed.add(PartitionValues.parse(type, null));
      parsed.add(PartitionValues.parse(type, ""));
    }
    assertThat(parsed).hasSize(2 * TYPES.size()).containsOnlyNulls();
  }

  @Test
  void everyTypeParses() {
    assertThat(PartitionValues.parse(PrimitiveType.STRING, "a b/c=d%e")).isEqualTo("a b/c=d%e");
    assertThat(PartitionValues.parse(PrimitiveType.BOOLEAN, "true")).isEqualTo(true);
    assertThat(PartitionValues.parse(PrimitiveType.BOOLEAN, "false")).isEqualTo(false);
    assertThat(PartitionValues.parse(PrimitiveType.BYTE, "-128")).isEqualTo((byte) -128);
    assertThat(PartitionValues.parse(PrimitiveType.SHORT, "32767")).isEqualTo((short) 32767);
    assertThat(PartitionValues.parse(PrimitiveType.INTEGER, "-7")).isEqualTo(-7);
    assertThat(PartitionValues.parse(PrimitiveType.LONG, "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(PartitionValues.parse(PrimitiveType.FLOAT, "1.5")).isEqualTo(1.5f);
    assertThat(PartitionValues.parse(PrimitiveType.DOUBLE, "-0.25")).isEqualTo(-0.25);
    assertThat(PartitionValues.parse(PrimitiveType.DOUBLE, "NaN")).isEqualTo(Double.NaN);
    assertThat(PartitionValues.parse(new DecimalType(12, 2), "1.5")).isEqualTo(new BigDecimal("1.50"));
    assertThat(PartitionValues.parse(new DecimalType(12, 2), "-10.25")).isEqualTo(new BigDecimal("-10.25"));
    assertThat(PartitionValues.parse(PrimitiveType.DATE, "2026-02-28")).isEqualTo((int) LocalDate.of(2026, 2, 28).toEpochDay());
    assertThat(PartitionValues.parse(PrimitiveType.DATE, "1969-12-31")).isEqualTo(-1);
    assertThat(PartitionValues.parse(PrimitiveType.BINARY, "\u0001\u0002é"))
        .isEqualTo("\u0001\u0002é".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void timestampsInBothProtocolFormsAndTimestampNtz() {
    assertThat(PartitionValues.parse(PrimitiveType.TIMESTAMP, "1970-01-01 00:00:00")).isEqualTo(0L);
    assertThat(PartitionValues.parse(PrimitiveType.TIMESTAMP, "1970-01-01 00:00:00.123456")).isEqualTo(123_456L);
    assertThat(PartitionValues.parse(PrimitiveType.TIMESTAMP, "1970-01-01T00:00:00.123456Z")).isEqualTo(123_456L);
    assertThat(PartitionValues.parse(PrimitiveType.TIMESTAMP, "1970-01-01T01:00:00+01:00")).isEqualTo(0L);
    assertThat(PartitionValues.parse(PrimitiveType.TIMESTAMP, "1969-12-31 23:59:59.999999")).isEqualTo(-1L);
    assertThat(PartitionValues.parse(PrimitiveType.TIMESTAMP_NTZ, "2026-01-01 12:34:56.5"))
        .isEqualTo((LocalDate.of(2026, 1, 1).toEpochDay() * 86_400 + 12 * 3600 + 34 * 60 + 56) * 1_000_000L + 500_000L);
  }

  @Test
  void valuesThatAreNotOfTheTypeAreRefusedNamingValueAndType() {
    assertThatThrownBy(() -> PartitionValues.parse(PrimitiveType.INTEGER, "x1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("partition value 'x1' is not a integer");
    assertThatThrownBy(() -> PartitionValues.parse(PrimitiveType.BYTE, "128")).hasMessageContaining("'128' is not a byte");
    assertThatThrownBy(() -> PartitionValues.parse(new DecimalType(12, 2), "1.555"))
        .hasMessageContaining("'1.555' is not a decimal(12,2)");
    assertThatThrownBy(() -> PartitionValues.parse(PrimitiveType.DATE, "2026-02-30")).hasMessageContaining("is not a date");
    assertThatThrownBy(() -> PartitionValues.parse(PrimitiveType.BOOLEAN, "yes"))
        .hasMessage("partition value 'yes' is not a boolean: expected true or false");
    assertThatThrownBy(() -> PartitionValues.parse(StructType.of(new StructField("x", PrimitiveType.INTEGER, true)), "1"))
        .hasMessageContaining("a partition column cannot have type struct<x:integer>");
  }
}
