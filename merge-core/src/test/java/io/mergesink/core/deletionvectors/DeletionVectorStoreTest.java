package io.mergesink.core.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.deletionvectors.Base85Codec;
import io.delta.kernel.internal.deletionvectors.DeletionVectorStoredBitmap;
import io.mergesink.core.storage.HadoopStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

class DeletionVectorStoreTest {
  private static final Engine KERNEL = DefaultEngine.create(new Configuration());

  private final DeletionVectorStore store = new DeletionVectorStore(HadoopStorage.withDefaults());

  @TempDir
  Path table;

  @Test
  void writesOneFileWithAllBitmapsThatDeltaKernelReads() throws IOException {
    List<Roaring64NavigableMap> bitmaps = List.of(small(), multiContainer());

    List<DeletionVectorDescriptor> dvs = store.write(table.toString(), bitmaps, 0).descriptors();

    assertThat(dvs).hasSize(2);
    String uuid = Z85.decodeUuid(dvs.get(0).pathOrInlineDv()).toString();
    assertThat(listFiles()).containsExactly("deletion_vector_" + uuid + ".bin");
    assertThat(dvs).allSatisfy(dv -> {
      assertThat(dv.storageType()).isEqualTo("u");
      assertThat(dv.pathOrInlineDv()).hasSize(20).isEqualTo(dvs.get(0).pathOrInlineDv());
    });
    assertThat(dvs.get(0).offset()).isEqualTo(1);
    assertThat(dvs.get(1).offset()).isEqualTo(1 + 4 + dvs.get(0).sizeInBytes() + 4);
    assertThat(Files.size(table.resolve(listFiles().get(0))))
        .isEqualTo(dvs.get(1).offset() + 4 + dvs.get(1).sizeInBytes() + 4);
    for (int i = 0; i < bitmaps.size(); i++) {
      DeletionVectorDescriptor dv = dvs.get(i);
      assertThat(dv.cardinality()).isEqualTo(bitmaps.get(i).getLongCardinality());
      assertThat(dv.sizeInBytes()).isEqualTo(RoaringBitmapArrayCodec.serialize(bitmaps.get(i)).length);
      assertThat(kernelRead(dv, table.toString())).containsExactly(bitmaps.get(i).toArray());
      assertThat(store.read(table.toString(), dv).toArray()).containsExactly(bitmaps.get(i).toArray());
    }
  }

  @Test
  void inlineDescriptorsDecodeInDeltaKernelLikeKernelEncodesThem() throws IOException {
    List<Roaring64NavigableMap> bitmaps = List.of(small(), Roaring64NavigableMap.bitmapOf(5), multiContainer());
    assertThat(bitmaps).as("some bitmap needs Z85 padding")
        .anyMatch(b -> RoaringBitmapArrayCodec.serialize(b).length % 4 != 0);

    for (Roaring64NavigableMap bitmap : bitmaps) {
      DeletionVectorDescriptor dv = DeletionVectorStore.inline(bitmap);
      byte[] bytes = RoaringBitmapArrayCodec.serialize(bitmap);

      assertThat(dv.storageType()).isEqualTo("i");
      assertThat(dv.offset()).isNull();
      assertThat(dv.sizeInBytes()).isEqualTo(bytes.length);
      assertThat(dv.cardinality()).isEqualTo(bitmap.getLongCardinality());
      assertThat(dv.pathOrInlineDv()).isEqualTo(Base85Codec.encodeBytes(bytes));
      // Kernel's decoding of inline bytes; DeletionVectorKernelScanTest scans a table with one.
      assertThat(kernelRead(dv, null)).containsExactly(bitmap.toArray());
      assertThat(store.read(table.toString(), dv).toArray()).containsExactly(bitmap.toArray());
    }
  }

  @Test
  void bitmapsUpToTheInlineLimitStayInlineAndTheOthersShareOneFile() throws IOException {
    Roaring64NavigableMap one = Roaring64NavigableMap.bitmapOf(5);
    int oneBytes = RoaringBitmapArrayCodec.serialize(one).length;
    List<Roaring64NavigableMap> bitmaps = List.of(multiContainer(), one, small());
    assertThat(RoaringBitmapArrayCodec.serialize(small()).length).isGreaterThan(oneBytes);

    DeletionVectorStore.Written written = store.write(table.toString(), bitmaps, oneBytes);

    List<DeletionVectorDescriptor> dvs = written.descriptors();
    assertThat(dvs).extracting(DeletionVectorDescriptor::storageType).containsExactly("u", "i", "u");
    assertThat(dvs.get(1)).isEqualTo(DeletionVectorStore.inline(one));
    assertThat(dvs.get(2).offset()).as("the inline bitmap left no gap in the file")
        .isEqualTo(1 + 4 + dvs.get(0).sizeInBytes() + 4);
    assertThat(written.file()).hasValue(DeletionVectorStore.absolutePath(table.toString(), dvs.get(0)));
    assertThat(listFiles()).hasSize(1);
    for (int i = 0; i < bitmaps.size(); i++) {
      String root = dvs.get(i).isInline() ? null : table.toString();
      assertThat(kernelRead(dvs.get(i), root)).containsExactly(bitmaps.get(i).toArray());
    }
  }

  @Test
  void allInlineWritesNoFile() throws IOException {
    DeletionVectorStore.Written written = store.write(table.toString(), List.of(small(), multiContainer()), Integer.MAX_VALUE);

    assertThat(written.descriptors()).allMatch(DeletionVectorDescriptor::isInline);
    assertThat(written.file()).isEmpty();
    assertThat(listFiles()).isEmpty();
  }

  @Test
  void inlineLimitComesFromTheTableProperty() {
    assertThat(DeletionVectorStore.maxInlineBytes(java.util.Map.of())).isZero();
    assertThat(DeletionVectorStore.maxInlineBytes(java.util.Map.of(DeletionVectorStore.MAX_INLINE_BYTES_PROPERTY, " 256 ")))
        .isEqualTo(256);
    assertThatThrownBy(() -> DeletionVectorStore.maxInlineBytes(java.util.Map.of(DeletionVectorStore.MAX_INLINE_BYTES_PROPERTY, "-1")))
        .hasMessage("table property mergesink.deletionVectors.maxInlineBytes must be a number of bytes >= 0, found '-1'");
    assertThatThrownBy(() -> DeletionVectorStore.maxInlineBytes(java.util.Map.of(DeletionVectorStore.MAX_INLINE_BYTES_PROPERTY, "1k")))
        .hasMessageContaining("found '1k'");
  }

  @Test
  void uuidEncodingAgreesWithDeltaKernel() {
    for (int i = 0; i < 20; i++) {
      UUID uuid = UUID.randomUUID();
      assertThat(Z85.encodeUuid(uuid)).isEqualTo(Base85Codec.encodeUUID(uuid));
      assertThat(Z85.decodeUuid(Base85Codec.encodeUUID(uuid))).isEqualTo(uuid);
    }
  }

  @Test
  void emptyListWritesNoFile() throws IOException {
    assertThat(store.write(table.toString(), List.of(), 0).descriptors()).isEmpty();
    assertThat(listFiles()).isEmpty();
  }

  @Test
  void readsRandomPrefixAndAbsolutePathDescriptors() throws IOException {
    DeletionVectorDescriptor written = store.write(table.toString(), List.of(small()), 0).descriptors().get(0);
    Path file = table.resolve(listFiles().get(0));
    Files.createDirectories(table.resolve("ab"));
    Files.move(file, table.resolve("ab").resolve(file.getFileName()));
    DeletionVectorDescriptor prefixed = new DeletionVectorDescriptor("u", "ab" + written.pathOrInlineDv(),
        written.offset(), written.sizeInBytes(), written.cardinality());
    DeletionVectorDescriptor absolute = new DeletionVectorDescriptor("p",
        table.resolve("ab").resolve(file.getFileName()).toUri().toString(), written.offset(), written.sizeInBytes(),
        written.cardinality());

    assertThat(store.read(table.toString(), prefixed).toArray()).containsExactly(small().toArray());
    assertThat(kernelRead(prefixed, table.toString())).containsExactly(small().toArray());
    assertThat(store.read("/elsewhere", absolute).toArray()).containsExactly(small().toArray());
  }

  @Test
  void absolutePathFollowsProtocolDerivedFields() {
    // PROTOCOL.md, "JSON Example 1" and "JSON Example 2".
    DeletionVectorDescriptor relative = new DeletionVectorDescriptor("u", "ab^-aqEH.-t@S}K{vb[*k^", 4, 40, 6);
    DeletionVectorDescriptor absolute = new DeletionVectorDescriptor("p",
        "s3://mytable/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin", 4, 40, 6);

    assertThat(DeletionVectorStore.absolutePath("s3://mytable", relative))
        .isEqualTo("s3://mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    assertThat(DeletionVectorStore.absolutePath("s3://mytable/", relative))
        .isEqualTo("s3://mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    assertThat(DeletionVectorStore.absolutePath("/ignored", absolute))
        .isEqualTo("s3://mytable/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
    assertThat(DeletionVectorStore.absolutePath("/ignored",
        new DeletionVectorDescriptor("p", "file:/data/my%20table/dv.bin", 1, 40, 6)))
        .isEqualTo("file:/data/my table/dv.bin");
    assertThatThrownBy(() -> DeletionVectorStore.absolutePath("/t",
        new DeletionVectorDescriptor("p", "relative/dv.bin", 1, 40, 6)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected an absolute URI");
    assertThatThrownBy(() -> DeletionVectorStore.absolutePath("/t", DeletionVectorStore.inline(small())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is inline");
    assertThatThrownBy(() -> DeletionVectorStore.absolutePath("/t", new DeletionVectorDescriptor("x", "a", 1, 4, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("found 'x'");
  }

  @Test
  void aCorruptChecksumNamesFileOffsetExpectedAndFound() throws IOException {
    DeletionVectorDescriptor dv = store.write(table.toString(), List.of(small()), 0).descriptors().get(0);
    Path file = table.resolve(listFiles().get(0));
    byte[] bytes = Files.readAllBytes(file);
    bytes[dv.offset() + 4 + dv.sizeInBytes() - 1] ^= 1;
    Files.write(file, bytes);
    // Hadoop's local file system keeps its own checksum beside the file; drop it so that the
    // corruption reaches the DV's CRC (as on object stores, which have no such side file).
    Files.delete(table.resolve("." + file.getFileName() + ".crc"));

    assertThatThrownBy(() -> store.read(table.toString(), dv))
        .isInstanceOf(CorruptDeletionVectorException.class)
        .hasMessageContaining(file.getFileName().toString())
        .hasMessageContaining("at offset 1: expected CRC-32 ")
        .hasMessageContaining("(stored), found ");
  }

  @Test
  void aSizeFieldThatDisagreesWithTheDescriptorIsCorrupt() throws IOException {
    List<DeletionVectorDescriptor> dvs = store.write(table.toString(), List.of(small(), small()), 0).descriptors();
    DeletionVectorDescriptor first = dvs.get(0);
    DeletionVectorDescriptor last = dvs.get(1);
    DeletionVectorDescriptor firstTooLong = new DeletionVectorDescriptor("u", first.pathOrInlineDv(), first.offset(),
        first.sizeInBytes() + 1, first.cardinality());
    DeletionVectorDescriptor lastTooLong = new DeletionVectorDescriptor("u", last.pathOrInlineDv(), last.offset(),
        last.sizeInBytes() + 1, last.cardinality());

    assertThatThrownBy(() -> store.read(table.toString(), firstTooLong))
        .isInstanceOf(CorruptDeletionVectorException.class)
        .hasMessageContaining("at offset 1: expected size field " + (first.sizeInBytes() + 1)
            + " (the descriptor's sizeInBytes), found " + first.sizeInBytes());
    assertThatThrownBy(() -> store.read(table.toString(), lastTooLong))
        .isInstanceOf(CorruptDeletionVectorException.class)
        .hasMessageContaining("at offset " + last.offset() + ": expected " + (last.sizeInBytes() + 9) + " bytes");
  }

  @Test
  void aCardinalityThatDisagreesWithTheBitmapIsCorrupt() throws IOException {
    DeletionVectorDescriptor dv = store.write(table.toString(), List.of(small()), 0).descriptors().get(0);
    DeletionVectorDescriptor wrong = new DeletionVectorDescriptor("u", dv.pathOrInlineDv(), dv.offset(),
        dv.sizeInBytes(), dv.cardinality() + 1);

    assertThatThrownBy(() -> store.read(table.toString(), wrong))
        .isInstanceOf(CorruptDeletionVectorException.class)
        .hasMessageContaining("expected cardinality 4 (descriptor), found 3 rows in the bitmap");
  }

  @Test
  void protocolInlineExampleHasABigEndianMagicNumber() {
    // PROTOCOL.md "JSON Example 3" is known to be wrong: its bytes start with 0x6439D3D0 written
    // big-endian, which is the magic number of the older "native" RoaringBitmapArray format
    // (1681511376) in the wrong byte order, not the portable format's 1681511377 little-endian.
    DeletionVectorDescriptor example = new DeletionVectorDescriptor("i",
        "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", null, 40, 6);

    assertThat(Z85.decode(example.pathOrInlineDv())).startsWith(0x64, 0x39, 0xD3, 0xD0);
    assertThatThrownBy(() -> store.read(table.toString(), example))
        .isInstanceOf(CorruptDeletionVectorException.class)
        .hasMessageContaining("expected RoaringBitmapArray magic number 1681511377 (little-endian), found -791463580");
  }

  /** The row indexes Delta Kernel's own DV reader finds for {@code dv}. */
  private static long[] kernelRead(DeletionVectorDescriptor dv, String tableRoot) throws IOException {
    io.delta.kernel.internal.actions.DeletionVectorDescriptor kernelDv =
        new io.delta.kernel.internal.actions.DeletionVectorDescriptor(dv.storageType(), dv.pathOrInlineDv(),
            Optional.ofNullable(dv.offset()), dv.sizeInBytes(), dv.cardinality());
    return new DeletionVectorStoredBitmap(kernelDv, Optional.ofNullable(tableRoot))
        .load(KERNEL.getFileSystemClient()).toArray();
  }

  private static Roaring64NavigableMap small() {
    return Roaring64NavigableMap.bitmapOf(0, 3, 7);
  }

  /** Array and bitmap containers in two 32-bit buckets. */
  private static Roaring64NavigableMap multiContainer() {
    Roaring64NavigableMap bitmap = new Roaring64NavigableMap();
    for (long row = 0; row < 200_000; row += 3) {
      bitmap.addLong(row);
    }
    bitmap.addLong(1L << 32);
    bitmap.addLong(5_000_000_000L);
    return bitmap;
  }

  private List<String> listFiles() throws IOException {
    try (Stream<Path> files = Files.list(table)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
    }
  }
}
