package io.mergesink.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The type changes of PROTOCOL.md's "Type Widening", and the check of a schema's {@code delta.typeChanges}. */
class TypeChangesTest {
  @Test
  void theProtocolsWideningsAndNothingElse() {
    assertThat(TypeChanges.isSupported(PrimitiveType.BYTE, PrimitiveType.SHORT)).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.SHORT, PrimitiveType.INTEGER)).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.INTEGER, PrimitiveType.LONG)).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.BYTE, PrimitiveType.LONG)).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.FLOAT, PrimitiveType.DOUBLE)).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.INTEGER, PrimitiveType.DOUBLE)).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.DATE, PrimitiveType.TIMESTAMP_NTZ)).isTrue();
    assertThat(TypeChanges.isSupported(new DecimalType(10, 2), new DecimalType(14, 2))).isTrue();
    assertThat(TypeChanges.isSupported(new DecimalType(10, 2), new DecimalType(12, 4))).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.INTEGER, new DecimalType(10, 0))).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.SHORT, new DecimalType(12, 2))).isTrue();
    assertThat(TypeChanges.isSupported(PrimitiveType.LONG, new DecimalType(20, 0))).isTrue();

    assertThat(TypeChanges.isSupported(PrimitiveType.LONG, PrimitiveType.INTEGER)).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.DOUBLE, PrimitiveType.FLOAT)).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.LONG, PrimitiveType.DOUBLE)).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.DATE, PrimitiveType.TIMESTAMP)).isFalse();
    assertThat(TypeChanges.isSupported(new DecimalType(10, 2), new DecimalType(10, 3))).as("scale up without precision").isFalse();
    assertThat(TypeChanges.isSupported(new DecimalType(10, 2), new DecimalType(9, 2))).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.INTEGER, new DecimalType(9, 0))).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.LONG, new DecimalType(20, 1))).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.STRING, PrimitiveType.BINARY)).isFalse();
    assertThat(TypeChanges.isSupported(PrimitiveType.INTEGER, PrimitiveType.INTEGER)).isFalse();
  }

  @Test
  void aSchemaWithOnlySupportedChangesPassesOthersAreRefusedByColumn() {
    StructType widened = StructType.of(
        new StructField("qty", PrimitiveType.LONG, true, changes("integer", "long")),
        new StructField("nested", StructType.of(
            new StructField("amount", new DecimalType(14, 2), true, changes("decimal(10,2)", "decimal(14,2)"))), true));
    TypeChanges.check(widened);

    StructType narrowed = StructType.of(new StructField("nested", StructType.of(
        new StructField("n", PrimitiveType.INTEGER, true, changes("long", "integer"))), true));
    assertThatThrownBy(() -> TypeChanges.check(narrowed)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("column 'nested.n' was changed from long to integer, which is not a type widening Delta allows");
    StructType malformed = StructType.of(new StructField("x", PrimitiveType.LONG, true,
        Map.of(TypeChanges.METADATA_KEY, List.of(Map.of("toType", "long")))));
    assertThatThrownBy(() -> TypeChanges.check(malformed)).hasMessageContaining("column 'x': a delta.typeChanges entry needs fromType and toType");
  }

  private static Map<String, Object> changes(String from, String to) {
    return Map.of(TypeChanges.METADATA_KEY, List.of(Map.of("fromType", from, "toType", to)));
  }
}
