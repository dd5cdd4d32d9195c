package io.mergesink.core.index;

import static io.mergesink.core.index.KeyIndexTest.loc;
import static io.mergesink.core.index.KeyIndexTest.schema;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyEncoderTest {
  private static byte[] encode(StructType schema, Row key) {
    KeyEncoder encoder = new KeyEncoder(schema);
    return Arrays.copyOf(encoder.buffer(), encoder.encode(key));
  }

  /** Asserts that the given keys, all different, encode to pairwise different bytes. */
  private static void assertDistinct(StructType schema, Row... keys) {
    Set<String> seen = new HashSet<>();
    for (Row key : keys) {
      assertThat(seen.add(Arrays.toString(encode(schema, key)))).as("encoding of %s is unique", key).isTrue();
    }
  }

  @Test
  void stringsAreLengthPrefixedUtf8() {
    String text = "grüße, 東京 \uD83D\uDE00";
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    byte[] encoded = encode(schema(PrimitiveType.STRING), Row.of(text));
    assertThat(encoded[0]).isEqualTo((byte) utf8.length);
    assertThat(Arrays.copyOfRange(encoded, 1, encoded.length)).isEqualTo(utf8);
    String long200 = "x".repeat(200);
    byte[] longEncoded = encode(schema(PrimitiveType.STRING), Row.of(long200));
    assertThat(longEncoded).hasSize(2 + 200); // 200 = 0xC8 → varint 0xC8 0x01
    assertThat(longEncoded[0]).isEqualTo((byte) 0xC8);
    assertThat(longEncoded[1]).isEqualTo((byte) 0x01);
  }

  @Test
  void unpairedSurrogatesStayDistinct() {
    // String.getBytes(UTF_8) would turn each of the first three into "?".
    assertDistinct(schema(PrimitiveType.STRING), Row.of("\uD800"), Row.of("\uDC00"), Row.of("\uDC00\uD800"),
        Row.of("?"), Row.of("??"), Row.of("\uFFFD"), Row.of("\uD800\uDC00"), Row.of(""));
  }

  @Test
  void boundariesBetweenColumnsCannotShift() {
    StructType twoStrings = schema(PrimitiveType.STRING, PrimitiveType.STRING);
    assertDistinct(twoStrings, Row.of("", "ab"), Row.of("a", "b"), Row.of("ab", ""));
    StructType twoBinaries = schema(PrimitiveType.BINARY, PrimitiveType.BINARY);
    assertDistinct(twoBinaries, Row.of(new byte[0], new byte[] {1, 1}), Row.of(new byte[] {1}, new byte[] {1}),
        Row.of(new byte[] {1, 1}, new byte[0]));
  }

  @Test
  void floatingPointFollowsRowEquality() {
    StructType doubles = schema(PrimitiveType.DOUBLE);
    assertDistinct(doubles, Row.of(0.0), Row.of(-0.0), Row.of(Double.NaN), Row.of(Double.MIN_VALUE));
    assertThat(encode(doubles, Row.of(Double.NaN)))
        .isEqualTo(encode(doubles, Row.of(Double.longBitsToDouble(0x7ff8_0000_0000_0001L))));
  }

  @Test
  void decimalsAreCanonicalAtTheTypeScale() {
    StructType wide = schema(new DecimalType(38, 2));
    assertThat(encode(wide, Row.of(new BigDecimal("-0.00")))).isEqualTo(encode(wide, Row.of(BigDecimal.ZERO)));
    assertThat(encode(wide, Row.of(new BigDecimal("2.5")))).isEqualTo(encode(wide, Row.of(new BigDecimal("2.50"))));
    List<Row> values = new ArrayList<>();
    for (String v : List.of("0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "65535", "-65536",
        "999999999999999999999999999999999999.99", "-999999999999999999999999999999999999.99")) {
      values.add(Row.of(new BigDecimal(v)));
    }
    assertDistinct(wide, values.toArray(new Row[0]));
    StructType narrow = schema(new DecimalType(18, 0));
    assertThat(encode(narrow, Row.of(new BigDecimal("-1")))).hasSize(Long.BYTES)
        .containsOnly((byte) 0xFF);
  }

  @Test
  void keysLargerThanAnArenaPageAreStored() {
    KeyIndex index = KeyIndex.create(schema(PrimitiveType.BINARY));
    byte[] huge = new byte[KeyArena.MAX_PAGE_BYTES + 10];
    huge[huge.length - 1] = 1;
    byte[] hugeToo = huge.clone();
    hugeToo[huge.length - 1] = 2;
    index.put(Row.of(huge), loc(0, 1));
    index.put(Row.of(hugeToo), loc(0, 2));
    index.put(Row.of(new byte[] {3}), loc(0, 3));
    assertThat(index.lookup(Row.of(huge.clone()))).isEqualTo(loc(0, 1));
    assertThat(index.lookup(Row.of(hugeToo))).isEqualTo(loc(0, 2));
    assertThat(index.lookup(Row.of(new byte[] {3}))).isEqualTo(loc(0, 3));
  }
}
