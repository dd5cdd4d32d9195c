package io.mergesink.core.deletionvectors;

import io.mergesink.core.storage.Storage;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.CRC32;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Writes and reads deletion vectors: DV files next to the data files (storage type {@code u}),
 * files at absolute paths ({@code p}, read only) and inline bitmaps in the log ({@code i}).
 *
 * <p>DV file layout (PROTOCOL.md, appendix "Deletion Vector Format", section
 * <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-file-storage-format">"Deletion Vector File Storage Format"</a>), every number big-endian:
 * <pre>
 *   byte 0                 format version {@value #FILE_FORMAT_VERSION}
 *   per DV, starting at the descriptor's offset:
 *     4 bytes              dataSize: length of the bitmap (int32, big-endian)
 *     dataSize bytes       the bitmap in {@link RoaringBitmapArrayCodec} format (little-endian inside)
 *     4 bytes              CRC-32 of the bitmap bytes (int32, big-endian)
 * </pre>
 * Where a {@code u} DV lives is derived from its descriptor (PROTOCOL.md,
 * <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-descriptor-schema">"Deletion Vector Descriptor Schema"</a>,
 * <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#derived-fields">"Derived Fields"</a>): {@code pathOrInlineDv} is an optional random prefix
 * followed by the 20-character {@link Z85} form of a UUID, and the file is
 * {@code <table root>/<prefix>/deletion_vector_<uuid>.bin}.
 *
 * <p>All I/O goes through {@link Storage}. Reads check the size field against
 * {@code sizeInBytes}, the checksum, the magic number and the cardinality, and fail with a
 * {@link CorruptDeletionVectorException} naming the file, offset, expected and found values.
 */
public final class DeletionVectorStore {
  /** Value of byte 0 of every DV file: the format described above. */
  public static final byte FILE_FORMAT_VERSION = 1;
  /** Width of the format version field at the start of a DV file. */
  public static final int FILE_FORMAT_VERSION_BYTES = 1;
  /** Width of the big-endian int32 size field in front of each bitmap. */
  public static final int SIZE_FIELD_BYTES = Integer.BYTES;
  /** Width of the big-endian int32 CRC-32 field behind each bitmap. */
  public static final int CHECKSUM_FIELD_BYTES = Integer.BYTES;
  /** File name of a {@code u} DV: {@code deletion_vector_<uuid>.bin}. */
  public static final String FILE_NAME_PREFIX = "deletion_vector_";
  public static final String FILE_NAME_SUFFIX = ".bin";
  /**
   * Table property: the largest serialized deletion vector, in bytes, that writers keep inline in
   * the log instead of a DV file; absent or 0 puts every DV in a file.
   */
  public static final String MAX_INLINE_BYTES_PROPERTY = "mergesink.deletionVectors.maxInlineBytes";

  private final Storage storage;

  public DeletionVectorStore(Storage storage) {
    this.storage = Objects.requireNonNull(storage, "storage");
  }

  /**
   * Writes {@code bitmaps}: each whose serialized form takes at most {@code maxInlineBytes} as an
   * inline descriptor (storage type {@code i}, see {@link #inline}), all others, in order, into one
   * new file {@code <tableRoot>/deletion_vector_<random uuid>.bin} with one {@code u} descriptor
   * each (no random prefix; {@code offset} points at that DV's size field). No file is written when
   * every bitmap is inline or the list is empty. The bitmaps are not modified.
   *
   * <p>The file is built in memory and written in one go. When the write fails, a partial file may
   * remain; no commit references it, and vacuum removes it like any other unreferenced file.
   *
   * @param maxInlineBytes the largest serialized bitmap kept inline; 0 writes every bitmap to the file
   * @return the descriptors in bitmap order and the DV file written, if any
   * @throws IllegalArgumentException when a bitmap holds a negative row index or the file would
   *     exceed the largest array (just under 2 GiB, within the int32 offsets of the descriptor)
   * @throws IOException when the storage fails
   */
  public Written write(String tableRoot, List<Roaring64NavigableMap> bitmaps, int maxInlineBytes) throws IOException {
    if (bitmaps.isEmpty()) {
      return new Written(List.of(), Optional.empty());
    }
    UUID uuid = UUID.randomUUID();
    ByteArrayDataOutput file = new ByteArrayDataOutput(estimatedFileBytes(bitmaps));
    file.writeByte(FILE_FORMAT_VERSION);
    List<DeletionVectorDescriptor> descriptors = new ArrayList<>(bitmaps.size());
    for (Roaring64NavigableMap bitmap : bitmaps) {
      int offset = file.size();
      file.writeInt(0); // the size field, set once the bitmap is written
      RoaringBitmapArrayCodec.serialize(bitmap, file);
      int length = file.size() - offset - SIZE_FIELD_BYTES;
      if (length <= maxInlineBytes) {
        descriptors.add(inline(Arrays.copyOfRange(file.array(), offset + SIZE_FIELD_BYTES, file.size()), bitmap.getLongCardinality()));
        file.truncate(offset);
        continue;
      }
      file.setInt(offset, length);
      file.writeInt(crc32(file.array(), offset + SIZE_FIELD_BYTES, length));
      descriptors.add(new DeletionVectorDescriptor(DeletionVectorDescriptor.UUID_RELATIVE, Z85.encodeUuid(uuid),
          offset, length, bitmap.getLongCardinality()));
    }
    if (file.size() == FILE_FORMAT_VERSION_BYTES) {
      return new Written(List.copyOf(descriptors), Optional.empty());
    }
    String path = join(tableRoot, fileName(uuid));
    try (OutputStream out = storage.create(path)) {
      out.write(file.array(), 0, file.size());
    }
    return new Written(List.copyOf(descriptors), Optional.of(path));
  }

  /**
   * The {@value #MAX_INLINE_BYTES_PROPERTY} of a table's configuration, 0 when absent.
   *
   * @throws IllegalArgumentException when the value is not a non-negative integer
   */
  public static int maxInlineBytes(Map<String, String> tableConfiguration) {
    String value = tableConfiguration.get(MAX_INLINE_BYTES_PROPERTY);
    if (value == null) {
      return 0;
    }
    try {
      int bytes = Integer.parseInt(value.trim());
      if (bytes >= 0) {
        return bytes;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("table property " + MAX_INLINE_BYTES_PROPERTY + " must be a number of bytes >= 0, found '"
        + value + "'");
  }

  /**
   * What {@link #write} wrote.
   *
   * @param descriptors one per bitmap, in order
   * @param file the storage path of the new DV file; empty when every DV is inline
   */
  public record Written(List<DeletionVectorDescriptor> descriptors, Optional<String> file) {}

  /**
   * Reads the bitmap a descriptor points to, from the log ({@code i}) or from its file
   * ({@code u}, {@code p}) with a single ranged read.
   *
   * @throws CorruptDeletionVectorException when the size field, checksum, magic number or
   *     cardinality disagree with the descriptor, or the bitmap does not parse
   * @throws IllegalArgumentException when the descriptor's storage type or path is invalid
   * @throws IOException when the storage fails (for example the file is missing)
   */
  public Roaring64NavigableMap read(String tableRoot, DeletionVectorDescriptor dv) throws IOException {
    if (dv.sizeInBytes() < 0) {
      throw new CorruptDeletionVectorException("deletion vector " + dv + " has a negative sizeInBytes");
    }
    if (dv.isInline()) {
      return readInline(dv);
    }
    String path = absolutePath(tableRoot, dv);
    long offset = dv.offset() == null ? 0 : dv.offset();
    int recordLength = SIZE_FIELD_BYTES + dv.sizeInBytes() + CHECKSUM_FIELD_BYTES;
    byte[] record;
    try {
      record = storage.readRange(path, offset, recordLength);
    } catch (EOFException e) {
      throw new CorruptDeletionVectorException("deletion vector in " + path + " at offset " + offset
          + ": expected " + recordLength + " bytes (size field, " + dv.sizeInBytes()
          + " bitmap bytes, checksum), but the file ends before", e);
    }
    ByteBuffer buffer = ByteBuffer.wrap(record).order(ByteOrder.BIG_ENDIAN);
    int size = buffer.getInt();
    if (size != dv.sizeInBytes()) {
      throw new CorruptDeletionVectorException("deletion vector in " + path + " at offset " + offset
          + ": expected size field " + dv.sizeInBytes() + " (the descriptor's sizeInBytes), found " + size);
    }
    byte[] bitmapBytes = Arrays.copyOfRange(record, SIZE_FIELD_BYTES, SIZE_FIELD_BYTES + size);
    buffer.position(SIZE_FIELD_BYTES + size);
    int storedChecksum = buffer.getInt();
    int actualChecksum = crc32(bitmapBytes);
    if (storedChecksum != actualChecksum) {
      throw new CorruptDeletionVectorException("deletion vector in " + path + " at offset " + offset
          + ": expected CRC-32 " + Integer.toUnsignedString(storedChecksum, 16) + " (stored), found "
          + Integer.toUnsignedString(actualChecksum, 16) + " (computed over " + size + " bitmap bytes)");
    }
    return parse(bitmapBytes, dv, path + " at offset " + offset);
  }

  /**
   * The file a {@code u} or {@code p} deletion vector lives in (PROTOCOL.md, "Derived Fields":
   * {@code absolutePath}).
   *
   * @throws IllegalArgumentException for inline DVs, unknown storage types, a {@code u} path that
   *     does not end in a Z85 UUID, or a {@code p} path that is not an absolute URI
   */
  public static String absolutePath(String tableRoot, DeletionVectorDescriptor dv) {
    String pathOrInlineDv = dv.pathOrInlineDv();
    switch (dv.storageType()) {
      case DeletionVectorDescriptor.UUID_RELATIVE -> {
        if (pathOrInlineDv.length() < Z85.ENCODED_UUID_LENGTH) {
          throw new IllegalArgumentException("deletion vector " + dv + ": expected pathOrInlineDv of a random prefix and "
              + Z85.ENCODED_UUID_LENGTH + " Z85 characters of a UUID, found " + pathOrInlineDv.length() + " characters");
        }
        int uuidStart = pathOrInlineDv.length() - Z85.ENCODED_UUID_LENGTH;
        String prefix = pathOrInlineDv.substring(0, uuidStart);
        UUID uuid = Z85.decodeUuid(pathOrInlineDv.substring(uuidStart));
        String directory = prefix.isEmpty() ? tableRoot : join(tableRoot, prefix);
        return join(directory, fileName(uuid));
      }
      case DeletionVectorDescriptor.ABSOLUTE_PATH -> {
        return decodeAbsoluteUri(dv);
      }
      case DeletionVectorDescriptor.INLINE ->
          throw new IllegalArgumentException("deletion vector " + dv + " is inline and has no file");
      default -> throw new IllegalArgumentException("deletion vector " + dv + ": expected storageType '"
          + DeletionVectorDescriptor.UUID_RELATIVE + "', '" + DeletionVectorDescriptor.ABSOLUTE_PATH + "' or '"
          + DeletionVectorDescriptor.INLINE + "', found '" + dv.storageType() + "'");
    }
  }

  /**
   * An inline descriptor (storage type {@code i}) for {@code bitmap}: the serialized bitmap,
   * zero-padded to a multiple of 4 bytes and Z85-encoded; {@code sizeInBytes} is the length
   * before padding, which is how Delta Kernel and Spark decode it (they drop the padding; both
   * parse the bytes with the same RoaringBitmapArray reader as a DV file's bitmap). No offset.
   *
   * <p>Delta Kernel before 4.2.0 cannot scan inline DVs (it compared the storage type with
   * {@code ==}); Trino refuses them ("Unsupported storage type for deletion vector: i"). Writers
   * therefore inline only where a table asks for it (docs/design.md, "Table format").
   */
  public static DeletionVectorDescriptor inline(Roaring64NavigableMap bitmap) {
    return inline(RoaringBitmapArrayCodec.serialize(bitmap), bitmap.getLongCardinality());
  }

  private static DeletionVectorDescriptor inline(byte[] bitmapBytes, long cardinality) {
    int paddedLength = (bitmapBytes.length + Z85.BYTES_PER_BLOCK - 1) / Z85.BYTES_PER_BLOCK * Z85.BYTES_PER_BLOCK;
    return new DeletionVectorDescriptor(DeletionVectorDescriptor.INLINE, Z85.encode(Arrays.copyOf(bitmapBytes, paddedLength)),
        null, bitmapBytes.length, cardinality);
  }

  private static Roaring64NavigableMap readInline(DeletionVectorDescriptor dv) throws CorruptDeletionVectorException {
    byte[] padded;
    try {
      padded = Z85.decode(dv.pathOrInlineDv());
    } catch (IllegalArgumentException e) {
      throw new CorruptDeletionVectorException("inline deletion vector " + dv + ": " + e.getMessage(), e);
    }
    if (padded.length < dv.sizeInBytes()) {
      throw new CorruptDeletionVectorException("inline deletion vector " + dv + ": expected at least "
          + dv.sizeInBytes() + " bytes (sizeInBytes), found " + padded.length + " after Z85 decoding");
    }
    return parse(Arrays.copyOf(padded, dv.sizeInBytes()), dv, "inline deletion vector " + dv);
  }

  private static Roaring64NavigableMap parse(byte[] bitmapBytes, DeletionVectorDescriptor dv, String where)
      throws CorruptDeletionVectorException {
    Roaring64NavigableMap bitmap;
    try {
      bitmap = RoaringBitmapArrayCodec.deserialize(bitmapBytes);
    } catch (IllegalArgumentException e) {
      throw new CorruptDeletionVectorException("deletion vector in " + where + ": " + e.getMessage(), e);
    }
    if (bitmap.getLongCardinality() != dv.cardinality()) {
      throw new CorruptDeletionVectorException("deletion vector in " + where + ": expected cardinality "
          + dv.cardinality() + " (descriptor), found " + bitmap.getLongCardinality() + " rows in the bitmap");
    }
    return bitmap;
  }

  private static String decodeAbsoluteUri(DeletionVectorDescriptor dv) {
    URI uri;
    try {
      uri = new URI(dv.pathOrInlineDv());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("deletion vector " + dv + ": expected an absolute URI, found '"
          + dv.pathOrInlineDv() + "' (" + e.getMessage() + ")", e);
    }
    if (!uri.isAbsolute()) {
      throw new IllegalArgumentException("deletion vector " + dv + ": expected an absolute URI with a scheme, found '"
          + dv.pathOrInlineDv() + "'");
    }
    String authority = uri.getAuthority() == null ? "" : "//" + uri.getAuthority();
    return uri.getScheme() + ":" + authority + uri.getPath();
  }

  /** The bitmaps' in-memory size, which their serialized form is close to: the buffer is sized once. */
  private static int estimatedFileBytes(List<Roaring64NavigableMap> bitmaps) {
    long bytes = FILE_FORMAT_VERSION_BYTES;
    for (Roaring64NavigableMap bitmap : bitmaps) {
      bytes += SIZE_FIELD_BYTES + RoaringBitmapArrayCodec.MAGIC_NUMBER_BYTES + bitmap.getLongSizeInBytes() + CHECKSUM_FIELD_BYTES;
    }
    return (int) Math.min(bytes, ByteArrayDataOutput.MAX_SIZE);
  }

  private static String fileName(UUID uuid) {
    return FILE_NAME_PREFIX + uuid + FILE_NAME_SUFFIX;
  }

  private static String join(String directory, String name) {
    return directory.endsWith("/") ? directory + name : directory + "/" + name;
  }

  private static int crc32(byte[] bytes) {
    return crc32(bytes, 0, bytes.length);
  }

  private static int crc32(byte[] bytes, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
