package io.mergesink.core.parquet;

import java.util.Objects;

/**
 * A finished data file, ready to be added to the table.
 *
 * @param path the path the file was written to, as given to {@link DataFileWriter#open}
 * @param sizeBytes the file's exact length in bytes
 * @param numRecords the number of rows (physical rows: Delta's {@code numRecords})
 * @param statsJson Delta's per-file statistics: {@code {"numRecords":N,"minValues":{..},
 *     "maxValues":{..},"nullCount":{..}}}, for the {@code stats} field of the {@code add} action
 */
public record WrittenFile(String path, long sizeBytes, long numRecords, String statsJson) {
  public WrittenFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(statsJson, "statsJson");
  }
}
