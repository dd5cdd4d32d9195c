package io.mergesink.core.datafiles;

import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.rowtracking.MaterializedColumns;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;

/**
 * Where and how a writer's new data files are written: table root, Parquet options, target size.
 */
public record NewFiles(Storage storage, String tableRoot, ParquetWriteOptions parquetOptions, long targetFileSizeBytes) {

  /** A roller for files of {@code snapshot}'s layout holding changed rows ({@code dataChange=true}) of {@code owners}. */
  public DataFileRoller roller(Snapshot snapshot, FileOwners owners) {
    return new DataFileRoller(storage, tableRoot, DataLayout.of(snapshot),
        MaterializedColumns.of(snapshot.protocol(), snapshot.metadata()).orElse(null), parquetOptions, targetFileSizeBytes, owners, true);
  }
}
