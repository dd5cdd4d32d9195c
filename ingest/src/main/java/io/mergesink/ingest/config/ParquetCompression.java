package io.mergesink.ingest.config;

import io.mergesink.ingest.options.NamedOption;

/** {@code parquet.compression}: the codec of written Parquet data files. */
public enum ParquetCompression implements NamedOption {
  ZSTD("zstd"),
  SNAPPY("snappy"),
  GZIP("gzip"),
  LZ4_RAW("lz4_raw"),
  UNCOMPRESSED("uncompressed");

  private final String configName;

  ParquetCompression(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }
}
