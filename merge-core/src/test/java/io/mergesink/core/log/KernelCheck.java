package io.mergesink.core.log;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.delta.kernel.internal.util.Utils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/** What Delta Kernel 4.0.0, the independent reader, sees in a table. */
final class KernelCheck {
  /** The state Kernel reports: version, live key values (DVs applied, sorted), txn versions asked for. */
  record View(long version, List<String> keys, Map<String, Long> txns, int readerVersion, List<String> readerFeatures) {}

  private KernelCheck() {}

  static View read(String tablePath, String keyColumn, List<String> appIds) {
    Engine engine = DefaultEngine.create(new Configuration());
    Snapshot snapshot = Table.forPath(engine, tablePath).getLatestSnapshot(engine);
    StructType readSchema = new StructType().add(snapshot.getSchema().get(keyColumn));
    Scan scan = snapshot.getScanBuilder().withReadSchema(readSchema).build();
    Row scanState = scan.getScanState(engine);
    StructType physicalSchema = ScanStateRow.getPhysicalDataReadSchema(engine, scanState);
    List<String> keys = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> scanFiles = scan.getScanFiles(engine)) {
      while (scanFiles.hasNext()) {
        try (CloseableIterator<Row> fileRows = scanFiles.next().getRows()) {
          while (fileRows.hasNext()) {
            Row scanFile = fileRows.next();
            FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
            CloseableIterator<ColumnarBatch> physical = engine.getParquetHandler()
                .readParquetFiles(Utils.singletonCloseableIterator(status), physicalSchema, Optional.empty());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, physical)) {
              while (logical.hasNext()) {
                try (CloseableIterator<Row> rows = logical.next().getRows()) {
                  while (rows.hasNext()) {
                    Row row = rows.next();
                    keys.add(String.valueOf(row.isNullAt(0) ? null : valueOf(row)));
                  }
                }
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Collections.sort(keys);
    SnapshotImpl impl = (SnapshotImpl) snapshot;
    Map<String, Long> txns = new TreeMap<>();
    for (String appId : appIds) {
      impl.getLatestTransactionVersion(engine, appId).ifPresent(v -> txns.put(appId, v));
    }
    return new View(snapshot.getVersion(), keys, txns, impl.getProtocol().getMinReaderVersion(),
        new ArrayList<>(impl.getProtocol().getReaderFeatures()));
  }

  private static Object valueOf(Row row) {
    io.delta.kernel.types.DataType type = row.getSchema().at(0).getDataType();
    if (type instanceof io.delta.kernel.types.LongType) {
      return row.getLong(0);
    }
    return row.getInt(0);
  }
}
