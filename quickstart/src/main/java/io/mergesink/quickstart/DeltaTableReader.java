package io.mergesink.quickstart;

import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the demo's Delta table with merge-core while the sink writes it: its version, live rows
 * and the Kafka offsets recorded as {@code txn} actions ({@code <connector>:<topic>:<partition>}).
 */
final class DeltaTableReader implements TableReader {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private final String tablePath;
  private final String connectorName;
  private final String appIdPrefix;
  private final DeltaTable table;

  /** @param topic the topic whose partitions' offsets {@link TableState#committedOffsets()} holds */
  DeltaTableReader(Storage storage, String tablePath, String connectorName, String topic) {
    this.tablePath = tablePath;
    this.connectorName = connectorName;
    this.appIdPrefix = connectorName + ":" + topic + ":";
    this.table = DeltaTable.forPath(storage, tablePath);
  }

  @Override
  public String format() {
    return "Delta";
  }

  @Override
  public String path() {
    return tablePath;
  }

  /** Whether a Delta log exists at the path. */
  @Override
  public boolean exists() {
    try {
      return table.exists();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Delta table " + tablePath, e);
    }
  }

  @Override
  public Optional<TableState> state() {
    if (!exists()) {
      return Optional.empty();
    }
    try {
      Snapshot snapshot = table.snapshot();
      long rows = 0;
      try (TableScan scan = table.scan(snapshot, List.of())) {
        while (scan.hasNext()) {
          scan.next();
          rows++;
        }
      }
      return Optional.of(new TableState(snapshot.version(), rows, offsets(snapshot)));
    } catch (TableNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Delta table " + tablePath, e);
    }
  }

  @Override
  public List<List<String>> rows() {
    try {
      Snapshot snapshot = table.snapshot();
      List<StructField> fields = snapshot.schema().fields();
      List<List<String>> lines = new ArrayList<>();
      lines.add(fields.stream().map(StructField::name).toList());
      try (TableScan scan = table.scan(snapshot, List.of())) {
        scan.forEachRemaining(row -> {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < fields.size(); i++) {
            cells.add(format(fields.get(i).type(), row.get(i)));
          }
          lines.add(cells);
        });
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Delta table " + tablePath, e);
    }
  }

  @Override
  public String positionsRecordedAs() {
    return "Delta txn actions, app id " + connectorName + ":<topic>:<partition>";
  }

  @Override
  public List<String> howToRead(String localPath) {
    return List.of(
        "Read it with Spark (Delta Lake 3.x; e.g. pyspark --packages io.delta:delta-spark_2.12:3.3.0 "
            + "--conf spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension "
            + "--conf spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog):",
        "  spark.read.format(\"delta\").load(\"" + localPath + "\").show()",
        "Read it with DuckDB:",
        "  INSTALL delta; LOAD delta; SELECT * FROM delta_scan('" + localPath + "');");
  }

  /** Nothing to release: the storage belongs to the table location. */
  @Override
  public void close() {}

  private Map<Integer, Long> offsets(Snapshot snapshot) {
    Map<Integer, Long> offsets = new TreeMap<>();
    snapshot.txnVersions().forEach((appId, version) -> {
      if (appId.startsWith(appIdPrefix)) {
        offsets.put(Integer.parseInt(appId.substring(appIdPrefix.length())), version);
      }
    });
    return offsets;
  }

  private static String format(DataType type, Object value) {
    if (value == null) {
      return "null";
    }
    if (type == PrimitiveType.DATE) {
      return LocalDate.ofEpochDay((Integer) value).toString();
    }
    if (type == PrimitiveType.TIMESTAMP) {
      return instant((Long) value).toString();
    }
    if (type == PrimitiveType.TIMESTAMP_NTZ) {
      return LocalDateTime.ofInstant(instant((Long) value), ZoneOffset.UTC).toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return value.toString();
  }

  private static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND))
        .plus(Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO, ChronoUnit.NANOS);
  }
}
