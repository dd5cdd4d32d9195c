package io.mergesink.ingest.format;

import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.format.delta.DeltaFormat;
import io.mergesink.ingest.format.iceberg.IcebergFormat;
import io.mergesink.ingest.format.paimon.PaimonFormat;

/** The one place a connector's {@code table.format} becomes a {@link TableFormat}. */
public final class TableFormats {
  private TableFormats() {}

  /**
   * The format {@code options.tableFormat()} names, for the tables under {@code options.tableRoot()}.
   *
   * @throws io.mergesink.ingest.errors.FatalIngestException the root's storage cannot hold tables
   */
  public static TableFormat of(IngestOptions options) {
    return switch (options.tableFormat()) {
      case DELTA -> new DeltaFormat(options);
      case ICEBERG -> new IcebergFormat(options);
      case PAIMON -> new PaimonFormat(options);
    };
  }
}
