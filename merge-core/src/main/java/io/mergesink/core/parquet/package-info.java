/**
 * Parquet data files of Delta tables: the Delta → Parquet schema mapping Spark and Delta Kernel use
 * ({@link io.mergesink.core.parquet.ParquetSchemas}), a writer that collects Delta's per-file
 * statistics while it writes ({@link io.mergesink.core.parquet.DataFileWriter}), and a projecting
 * reader that also reads files written by Spark ({@link io.mergesink.core.parquet.DataFileReader}).
 *
 * <p>Everything goes through parquet-hadoop's low-level record API (a {@code WriteSupport} over
 * {@code RecordConsumer}; converters over a {@code ParquetFileReader}); no Avro, no example
 * {@code Group}s. All bytes pass through {@link io.mergesink.core.storage.Storage}.
 */
package io.mergesink.core.parquet;
