package io.mergesink.core.merge;

import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructType;

/**
 * Where and how a writer's new data files are written: table root, Parquet options, target size,
 * and the owners of the writer's own rows.
 */
record NewFiles(Storage storage, String tableRoot, ParquetWriteOptions parquetOptions, long targetFileSizeBytes, FileOwners owners) {

  /** A roller for files holding changed rows ({@code dataChange=true}), owned by the writer. */
  DataFileRoller roller(StructType schema) {
    return new DataFileRoller(storage, tableRoot, schema, parquetOptions, targetFileSizeBytes, owners, true);
  }
}
