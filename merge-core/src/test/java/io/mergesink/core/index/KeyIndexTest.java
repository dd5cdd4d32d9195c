package io.mergesink.core.index;

import static io.mergesink.core.index.KeyIndex.MULTIPLE_LOCATIONS;
import static io.mergesink.core.index.KeyIndex.NO_LOCATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyIndexTest {
  static StructType schema(DataType... types) {
    StructField[] fields = new StructField[types.length];
    for (int i = 0; i < types.length; i++) {
      fields[i] = new StructField("k" + i, types[i], false);
    }
    return StructType.of(fields);
  }

  static long loc(int file, long row) {
    return RowLocation.pack(file, row);
  }

  /** Puts two keys, looks both up, removes one, and checks nothing else changed. */
  private static void roundTrip(StructType schema, Row a, Row b, Row absent) {
    KeyIndex index = KeyIndex.create(schema);
    index.put(a, loc(1, 10));
    index.put(b, loc(2, 20));
    assertThat(index.lookup(a)).as("lookup %s in %s", a, schema).isEqualTo(loc(1, 10));
    assertThat(index.lookup(b)).isEqualTo(loc(2, 20));
    assertThat(index.lookup(absent)).isEqualTo(NO_LOCATION);
    assertThat(index.locations(absent)).isEmpty();
    assertThat(index.size()).isEqualTo(2);
    index.remove(a, loc(1, 11)); // another location: nothing happens
    assertThat(index.lookup(a)).isEqualTo(loc(1, 10));
    index.remove(a, loc(1, 10));
    assertThat(index.lookup(a)).isEqualTo(NO_LOCATION);
    assertThat(index.locations(b)).containsExactly(loc(2, 20));
    assertThat(index.size()).isEqualTo(1);
    index.remove(absent, loc(1, 10));
    assertThat(index.size()).isEqualTo(1);
  }

  @Test
  void longLikeKeysUseTheLongLayout() {
    roundTrip(schema(PrimitiveType.LONG), Row.of(1L), Row.of(-1L), Row.of(2L));
    roundTrip(schema(PrimitiveType.INTEGER), Row.of(Integer.MIN_VALUE), Row.of(Integer.MAX_VALUE), Row.of(0));
    roundTrip(schema(PrimitiveType.SHORT), Row.of((short) 1), Row.of((short) -1), Row.of((short) 2));
    roundTrip(schema(PrimitiveType.BYTE), Row.of((byte) 1), Row.of((byte) -1), Row.of((byte) 2));
    roundTrip(schema(PrimitiveType.DATE), Row.of(19_000), Row.of(-3), Row.of(19_001));
    roundTrip(schema(PrimitiveType.TIMESTAMP), Row.of(1_700_000_000_000_000L), Row.of(0L), Row.of(1L));
    roundTrip(schema(PrimitiveType.TIMESTAMP_NTZ), Row.of(Long.MIN_VALUE), Row.of(Long.MAX_VALUE), Row.of(0L));
    assertThat(KeyIndex.create(schema(PrimitiveType.DATE)).isLongKeyed()).isTrue();
    assertThat(KeyIndex.create(schema(PrimitiveType.STRING)).isLongKeyed()).isFalse();
  }

  @Test
  void otherKeysUseTheBytesLayout() {
    roundTrip(schema(PrimitiveType.STRING), Row.of("alice"), Row.of("bob"), Row.of("alic"));
    roundTrip(schema(PrimitiveType.INTEGER, PrimitiveType.STRING),
        Row.of(1, "x"), Row.of(2, "x"), Row.of(1, "y"));
    roundTrip(schema(PrimitiveType.STRING, PrimitiveType.STRING),
        Row.of("a", "bc"), Row.of("ab", "c"), Row.of("abc", ""));
    roundTrip(schema(new DecimalType(10, 2)),
        Row.of(new BigDecimal("12.34")), Row.of(new BigDecimal("-12.34")), Row.of(new BigDecimal("12.35")));
    roundTrip(schema(new DecimalType(38, 4)), Row.of(new BigDecimal("12345678901234567890123456789.0001")),
        Row.of(new BigDecimal("-1.0000")), Row.of(new BigDecimal("1.0000")));
    roundTrip(schema(PrimitiveType.BINARY),
        Row.of(new byte[] {1, 2}), Row.of(new byte[] {1, 2, 0}), Row.of(new byte[0]));
    roundTrip(schema(PrimitiveType.DATE, PrimitiveType.TIMESTAMP),
        Row.of(19_000, 5L), Row.of(19_000, 6L), Row.of(19_001, 5L));
    roundTrip(schema(PrimitiveType.INTEGER, PrimitiveType.LONG), Row.of(1, 2L), Row.of(2, 1L), Row.of(1, 1L));
    roundTrip(schema(PrimitiveType.BOOLEAN, PrimitiveType.INTEGER),
        Row.of(true, 1), Row.of(false, 1), Row.of(true, 2));
    roundTrip(schema(PrimitiveType.DOUBLE), Row.of(0.0), Row.of(-0.0), Row.of(Double.NaN));
    roundTrip(schema(PrimitiveType.FLOAT), Row.of(1.5f), Row.of(Float.NaN), Row.of(-1.5f));
  }

  @Test
  void theLongFastPathSeesWhatTheRowMethodsStored() {
    KeyIndex index = KeyIndex.create(schema(PrimitiveType.INTEGER));
    index.put(Row.of(42), loc(3, 4));
    index.putLong(43, loc(3, 5));
    assertThat(index.lookupLong(42)).isEqualTo(loc(3, 4));
    assertThat(index.lookup(Row.of(43))).isEqualTo(loc(3, 5));
    assertThat(index.locationsLong(43)).containsExactly(loc(3, 5));
    index.removeLong(42, loc(3, 4));
    assertThat(index.lookup(Row.of(42))).isEqualTo(NO_LOCATION);
    assertThatThrownBy(() -> KeyIndex.create(schema(PrimitiveType.STRING)).lookupLong(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("lookupLong needs a key of one long-like column")
        .hasMessageContaining("struct<k0:string>");
  }

  @Test
  void keysEqualInJavaHashCodeAreNeverConfused() {
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    assertThat(Row.of("AaAa").hashCode()).isEqualTo(Row.of("BBBB").hashCode());
    KeyIndex index = KeyIndex.create(schema(PrimitiveType.STRING));
    List<String> colliding = List.of("AaAa", "AaBB", "BBAa", "BBBB");
    for (int i = 0; i < colliding.size(); i++) {
      index.put(Row.of(colliding.get(i)), loc(1, i));
    }
    for (int i = 0; i < colliding.size(); i++) {
      assertThat(index.lookup(Row.of(colliding.get(i)))).as(colliding.get(i)).isEqualTo(loc(1, i));
    }
    index.remove(Row.of("AaBB"), loc(1, 1));
    assertThat(index.lookup(Row.of("AaBB"))).isEqualTo(NO_LOCATION);
    assertThat(index.lookup(Row.of("BBAa"))).isEqualTo(loc(1, 2));
  }

  @Test
  void nullKeyComponentsAreRejected() {
    KeyIndex composite = KeyIndex.create(StructType.of(
        new StructField("tenant", PrimitiveType.INTEGER, false), new StructField("id", PrimitiveType.STRING, false)));
    assertThatThrownBy(() -> composite.put(Row.of(1, null), loc(0, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key column 'id' (position 1, type string) is null")
        .hasMessageContaining("primary key columns must not be null");
    assertThatThrownBy(() -> composite.lookup(Row.of(null, "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key column 'tenant'");
    KeyIndex longs = KeyIndex.create(StructType.of(new StructField("id", PrimitiveType.LONG, false)));
    assertThatThrownBy(() -> longs.lookup(Row.of((Object) null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key column 'id' (position 0, type long) is null");
    assertThat(composite.size()).isZero();
  }

  @Test
  void wrongValuesAndSchemasAreRejected() {
    KeyIndex ints = KeyIndex.create(schema(PrimitiveType.INTEGER));
    assertThatThrownBy(() -> ints.put(Row.of(1L), loc(0, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expects a java.lang.Integer, found java.lang.Long 1");
    assertThatThrownBy(() -> ints.put(Row.of(1, 2), loc(0, 0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected a key row of 1 values");
    assertThatThrownBy(() -> ints.put(Row.of(1), KeyIndex.NO_LOCATION))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RowLocation.pack");
    KeyIndex decimals = KeyIndex.create(schema(new DecimalType(5, 2)));
    assertThatThrownBy(() -> decimals.put(Row.of(new BigDecimal("1.234")), loc(0, 0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit scale 2");
    assertThatThrownBy(() -> KeyIndex.create(schema(PrimitiveType.STRING, new ArrayType(PrimitiveType.LONG, false))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key column 'k1' has type array<long>")
        .hasMessageContaining("must be of a primitive or decimal type");
    assertThatThrownBy(() -> KeyIndex.create(schema(new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyIndex.create(schema(schema(PrimitiveType.LONG))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("struct<k0:long>");
    assertThatThrownBy(() -> KeyIndex.create(StructType.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one key column");
  }

  @Test
  void decimalsEqualAtTheTypeScaleAreOneKey() {
    KeyIndex index = KeyIndex.create(schema(new DecimalType(10, 2)));
    index.put(Row.of(new BigDecimal("1.50")), loc(0, 1));
    assertThat(index.lookup(Row.of(new BigDecimal("1.5")))).isEqualTo(loc(0, 1));
  }

  @Test
  void duplicatesAreAllReturnedAndRemovedOneByOne() {
    for (StructType schema : List.of(schema(PrimitiveType.LONG), schema(PrimitiveType.STRING))) {
      KeyIndex index = KeyIndex.create(schema);
      Row key = schema.field(0).type() == PrimitiveType.LONG ? Row.of(7L) : Row.of("seven");
      Row other = schema.field(0).type() == PrimitiveType.LONG ? Row.of(8L) : Row.of("eight");
      index.put(other, loc(9, 9));
      index.put(key, loc(1, 1));
      index.put(key, loc(2, 2));
      index.put(key, loc(2, 2)); // the same pair again: no change
      index.put(key, loc(3, 3));
      assertThat(index.size()).as("%s", schema).isEqualTo(4);
      assertThat(index.keyCount()).isEqualTo(2);
      assertThat(index.lookup(key)).isEqualTo(MULTIPLE_LOCATIONS);
      assertThat(index.hasDuplicates(key)).isTrue();
      assertThat(index.locations(key)).containsExactlyInAnyOrder(loc(1, 1), loc(2, 2), loc(3, 3));
      index.remove(key, loc(2, 2));
      assertThat(index.locations(key)).containsExactlyInAnyOrder(loc(1, 1), loc(3, 3));
      index.remove(key, loc(1, 1));
      assertThat(index.lookup(key)).isEqualTo(loc(3, 3));
      assertThat(index.hasDuplicates(key)).isFalse();
      index.remove(key, loc(3, 3));
      assertThat(index.lookup(key)).isEqualTo(NO_LOCATION);
      assertThat(index.size()).isEqualTo(1);
      assertThat(index.lookup(other)).isEqualTo(loc(9, 9));
    }
  }

  @Test
  void replaceIsARemoveThenAPut() {
    for (StructType schema : List.of(schema(PrimitiveType.LONG), schema(PrimitiveType.STRING))) {
      KeyIndex index = KeyIndex.create(schema);
      Row key = schema.field(0).type() == PrimitiveType.LONG ? Row.of(7L) : Row.of("seven");
      Row absent = schema.field(0).type() == PrimitiveType.LONG ? Row.of(8L) : Row.of("eight");
      index.put(key, loc(1, 1));
      index.replace(key, loc(1, 1), loc(2, 2)); // the only location: moved
      assertThat(index.locations(key)).as("%s", schema).containsExactly(loc(2, 2));
      index.replace(key, loc(5, 5), loc(3, 3)); // not a location of the key: only the put happens
      assertThat(index.locations(key)).containsExactlyInAnyOrder(loc(2, 2), loc(3, 3));
      index.replace(key, loc(2, 2), loc(4, 4)); // one of several
      assertThat(index.locations(key)).containsExactlyInAnyOrder(loc(3, 3), loc(4, 4));
      index.replace(absent, loc(1, 1), loc(6, 6)); // a new key
      assertThat(index.lookup(absent)).isEqualTo(loc(6, 6));
      assertThat(index.size()).isEqualTo(3);
      assertThatThrownBy(() -> index.replace(key, NO_LOCATION, loc(7, 7))).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void bulkFormsDoWhatTheSingleOnesDo() {
    for (StructType schema : List.of(schema(PrimitiveType.LONG), schema(PrimitiveType.STRING))) {
      boolean isLong = schema.field(0).type() == PrimitiveType.LONG;
      List<Row> keys = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        keys.add(isLong ? Row.of((long) i) : Row.of("k" + i));
      }
      KeyIndex bulk = KeyIndex.create(schema);
      KeyIndex single = KeyIndex.create(schema);
      for (KeyIndex index : List.of(bulk, single)) {
        index.put(keys.get(0), loc(1, 0));
        index.put(keys.get(1), loc(1, 1));
        index.put(keys.get(2), loc(1, 2));
        index.put(keys.get(2), loc(2, 2)); // a duplicate
      }
      // key 0 moves, key 1 gets a second location (its replaced one is not there), key 2 loses one
      // of its two, key 3 is new; keys 4 and 5 stay absent
      long[] replaced = {loc(1, 0), loc(9, 9), loc(2, 2), NO_LOCATION};
      long[] locations = {loc(3, 0), loc(3, 1), loc(3, 2), loc(3, 3)};
      bulk.putAll(keys.subList(0, 4), replaced, locations);
      for (int i = 0; i < 4; i++) {
        if (replaced[i] == NO_LOCATION) {
          single.put(keys.get(i), locations[i]);
        } else {
          single.replace(keys.get(i), replaced[i], locations[i]);
        }
      }

      long[] found = bulk.lookupAll(keys);
      for (int i = 0; i < keys.size(); i++) {
        assertThat(found[i]).as("%s key %d", schema, i).isEqualTo(single.lookup(keys.get(i)));
        assertThat(bulk.locations(keys.get(i))).containsExactlyInAnyOrder(single.locations(keys.get(i)));
      }
      assertThat(found).containsExactly(loc(3, 0), MULTIPLE_LOCATIONS, MULTIPLE_LOCATIONS, loc(3, 3), NO_LOCATION, NO_LOCATION);
    }
  }

  @Test
  void removeFileDropsEveryLocationInTheFile() {
    for (StructType schema : List.of(schema(PrimitiveType.LONG), schema(PrimitiveType.INTEGER, PrimitiveType.STRING))) {
      KeyIndex index = KeyIndex.create(schema);
      boolean longs = index.isLongKeyed();
      int keys = 10_000;
      for (int i = 0; i < keys; i++) {
        Row key = longs ? Row.of((long) i) : Row.of(i, "key-" + i);
        index.put(key, loc(i % 3, i));
        if (i % 10 == 0) {
          index.put(key, loc(5, i)); // duplicate in file 5
        }
        if (i % 20 == 0) {
          index.put(key, loc(6, i)); // and in file 6
        }
      }
      index.removeFile(0);
      index.removeFile(5);
      for (int i = 0; i < keys; i++) {
        Row key = longs ? Row.of((long) i) : Row.of(i, "key-" + i);
        long[] locations = index.locations(key);
        for (long location : locations) {
          assertThat(RowLocation.fileId(location)).as("key %s in %s", key, schema).isNotIn(0, 5);
        }
        int expected = (i % 3 != 0 ? 1 : 0) + (i % 20 == 0 ? 1 : 0);
        assertThat(locations).as("key %s in %s", key, schema).hasSize(expected);
        assertThat(index.lookup(key))
            .isEqualTo(expected == 0 ? NO_LOCATION : expected == 1 ? locations[0] : MULTIPLE_LOCATIONS);
      }
      long expectedSize = 0;
      for (int i = 0; i < keys; i++) {
        expectedSize += (i % 3 != 0 ? 1 : 0) + (i % 20 == 0 ? 1 : 0);
      }
      assertThat(index.size()).isEqualTo(expectedSize);
    }
  }
}
