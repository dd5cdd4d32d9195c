package io.mergesink.core.parquet;

import java.util.Locale;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How data files are written.
 *
 * @param compression codec name: {@code zstd} (default), {@code snappy}, {@code gzip},
 *     {@code lz4_raw} or {@code uncompressed}; case-insensitive
 * @param rowGroupSizeBytes target size of a row group; the writer buffers about this much per file
 * @param pageSizeBytes target size of a data page
 */
public record ParquetWriteOptions(String compression, long rowGroupSizeBytes, int pageSizeBytes) {
  public static final String DEFAULT_COMPRESSION = "zstd";
  /** 128 MiB, Spark's and parquet-hadoop's default row group size. */
  public static final long DEFAULT_ROW_GROUP_SIZE_BYTES = 128L * 1024 * 1024;
  /** 1 MiB, parquet-hadoop's default page size. */
  public static final int DEFAULT_PAGE_SIZE_BYTES = 1024 * 1024;

  private static final Map<String, CompressionCodecName> CODECS = Map.of(
      "zstd", CompressionCodecName.ZSTD,
      "snappy", CompressionCodecName.SNAPPY,
      "gzip", CompressionCodecName.GZIP,
      "lz4_raw", CompressionCodecName.LZ4_RAW,
      "uncompressed", CompressionCodecName.UNCOMPRESSED);

  public ParquetWriteOptions {
    if (compression == null || !CODECS.containsKey(compression.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("Parquet compression must be one of " + CODECS.keySet()
          + ", found '" + compression + "'");
    }
    compression = compression.toLowerCase(Locale.ROOT);
    if (rowGroupSizeBytes <= 0) {
      throw new IllegalArgumentException("row group size must be positive, found " + rowGroupSizeBytes);
    }
    if (pageSizeBytes <= 0) {
      throw new IllegalArgumentException("page size must be positive, found " + pageSizeBytes);
    }
  }

  /** zstd, 128 MiB row groups, 1 MiB pages. */
  public static ParquetWriteOptions defaults() {
    return new ParquetWriteOptions(DEFAULT_COMPRESSION, DEFAULT_ROW_GROUP_SIZE_BYTES, DEFAULT_PAGE_SIZE_BYTES);
  }

  /** These options with another codec. */
  public ParquetWriteOptions withCompression(String codec) {
    return new ParquetWriteOptions(codec, rowGroupSizeBytes, pageSizeBytes);
  }

  CompressionCodecName codec() {
    return CODECS.get(compression);
  }
}
