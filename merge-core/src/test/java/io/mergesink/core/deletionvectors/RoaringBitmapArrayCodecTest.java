package io.mergesink.core.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

class RoaringBitmapArrayCodecTest {

  @Test
  void startsWithTheLittleEndianMagicNumberAndRoundTrips() {
    Roaring64NavigableMap bitmap = Roaring64NavigableMap.bitmapOf(0, 3, 7, 70_000, 1L << 32, 5_000_000_000L);

    byte[] bytes = RoaringBitmapArrayCodec.serialize(bitmap);

    // 1681511377 = 0x6439D3D1, least significant byte first.
    assertThat(Arrays.copyOf(bytes, 4)).containsExactly(0xD1, 0xD3, 0x39, 0x64);
    // Two 32-bit buckets (high keys 0 and 1), count as little-endian uint64.
    assertThat(Arrays.copyOfRange(bytes, 4, 12)).containsExactly(2, 0, 0, 0, 0, 0, 0, 0);
    assertThat(RoaringBitmapArrayCodec.deserialize(bytes).toArray()).containsExactly(bitmap.toArray());
  }

  @Test
  void emptyBitmapIsMagicAndZeroBuckets() {
    byte[] bytes = RoaringBitmapArrayCodec.serialize(new Roaring64NavigableMap());

    assertThat(bytes).containsExactly(0xD1, 0xD3, 0x39, 0x64, 0, 0, 0, 0, 0, 0, 0, 0);
    assertThat(RoaringBitmapArrayCodec.deserialize(bytes).isEmpty()).isTrue();
  }

  @Test
  void doesNotRunOptimizeOrOtherwiseModifyTheBitmap() {
    Roaring64NavigableMap bitmap = new Roaring64NavigableMap();
    for (long row = 0; row < 10_000; row++) {
      bitmap.addLong(row);
    }

    byte[] bytes = RoaringBitmapArrayCodec.serialize(bitmap);

    // 10,000 consecutive rows: a 8 KiB bitmap container as Spark writes it; a run container
    // would need a few bytes.
    assertThat(bytes.length).isGreaterThan(8192);
    assertThat(RoaringBitmapArrayCodec.serialize(bitmap)).containsExactly(bytes);
    assertThat(bitmap.getLongCardinality()).isEqualTo(10_000);
  }

  @Test
  void bytesAreTheLibrarysPortableFormatBehindTheMagicNumber() throws IOException {
    // an array container, a bitmap container and a second 32-bit bucket
    Roaring64NavigableMap bitmap = Roaring64NavigableMap.bitmapOf(1, 5, 70_000, 1L << 32);
    bitmap.addRange(1L << 17, (1L << 17) + 20_000);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(expected)) {
      out.writeInt(Integer.reverseBytes(RoaringBitmapArrayCodec.MAGIC_NUMBER));
      bitmap.serializePortable(out);
    }

    assertThat(RoaringBitmapArrayCodec.serialize(bitmap)).containsExactly(expected.toByteArray());
  }

  @Test
  void rejectsAWrongMagicNumberNamingExpectedAndFound() {
    byte[] bytes = RoaringBitmapArrayCodec.serialize(Roaring64NavigableMap.bitmapOf(1));
    bytes[0] = 0;

    assertThatThrownBy(() -> RoaringBitmapArrayCodec.deserialize(bytes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected RoaringBitmapArray magic number 1681511377 (little-endian), found 1681511168");
  }

  @Test
  void rejectsTruncatedAndTrailingBytes() {
    byte[] bytes = RoaringBitmapArrayCodec.serialize(Roaring64NavigableMap.bitmapOf(1, 2, 3));

    assertThatThrownBy(() -> RoaringBitmapArrayCodec.deserialize(Arrays.copyOf(bytes, 3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("found only 3 bytes");
    assertThatThrownBy(() -> RoaringBitmapArrayCodec.deserialize(Arrays.copyOf(bytes, bytes.length - 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("corrupt RoaringBitmapArray");
    assertThatThrownBy(() -> RoaringBitmapArrayCodec.deserialize(Arrays.copyOf(bytes, bytes.length + 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("found 2 trailing bytes");
  }

  @Test
  void rejectsNegativeRowIndexes() {
    assertThatThrownBy(() -> RoaringBitmapArrayCodec.serialize(Roaring64NavigableMap.bitmapOf(1, -1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("found -1");
  }
}
