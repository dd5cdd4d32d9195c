package io.mergesink.core.merge;

import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;
import java.util.Map;

/** Where and how a writer's new data files are written: table root, Parquet options, target size, tags. */
record NewFiles(Storage storage, String tableRoot, ParquetWriteOptions parquetOptions, long targetFileSizeBytes, Map<String, String> tags) {

  /** A roller for files holding changed rows ({@code dataChange=true}). */
  DataFileRoller roller(StructType schema) {
    return new DataFileRoller(storage, tableRoot, schema, parquetOptions, targetFileSizeBytes, tags, true);
  }
}
