package io.mergesink.core.index;

import static io.mergesink.core.index.KeyIndexTest.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import org.junit.jupiter.api.Test;

class KeySetTest {

  @Test
  void findsTheSecondOccurrenceOfALongLikeKey() {
    for (StructType schema : new StructType[] {schema(PrimitiveType.LONG), schema(PrimitiveType.INTEGER)}) {
      KeySet keys = KeySet.create(schema, 4);
      boolean isLong = schema.field(0).type() == PrimitiveType.LONG;
      Row seven = isLong ? Row.of(7L) : Row.of(7);
      Row minus = isLong ? Row.of(-7L) : Row.of(-7);
      assertThat(keys.add(seven)).as("%s", schema).isTrue();
      assertThat(keys.add(minus)).isTrue();
      assertThat(keys.add(isLong ? Row.of(7L) : Row.of(7))).isFalse();
      assertThat(keys.add(minus)).isFalse();
    }
  }

  @Test
  void comparesOtherKeysByValueIncludingBinary() {
    KeySet keys = KeySet.create(schema(PrimitiveType.INTEGER, PrimitiveType.BINARY), 4);
    assertThat(keys.add(Row.of(1, new byte[] {1, 2}))).isTrue();
    assertThat(keys.add(Row.of(1, new byte[] {1, 3}))).isTrue();
    assertThat(keys.add(Row.of(2, new byte[] {1, 2}))).isTrue();
    assertThat(keys.add(Row.of(1, new byte[] {1, 2}))).isFalse();
  }

  @Test
  void rejectsAKeyOfTheWrongClassNamingTheColumn() {
    KeySet keys = KeySet.create(schema(PrimitiveType.LONG), 4);
    assertThatThrownBy(() -> keys.add(Row.of("7"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k0");
  }
}
