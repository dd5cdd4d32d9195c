package io.mergesink.quickstart;

import io.mergesink.core.data.Row;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the demo's Delta table with merge-core while the sink writes it: its version, live rows
 * and the Kafka offsets recorded as {@code txn} actions ({@code <connector>:<topic>:<partition>}).
 */
final class DeltaTableReader {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private final String tablePath;
  private final String appIdPrefix;
  private final DeltaTable table;

  /** @param topic the topic whose partitions' offsets {@link TableState#committedOffsets()} holds */
  DeltaTableReader(Storage storage, String tablePath, String connectorName, String topic) {
    this.tablePath = tablePath;
    this.appIdPrefix = connectorName + ":" + topic + ":";
    this.table = DeltaTable.forPath(storage, tablePath);
  }

  String path() {
    return tablePath;
  }

  /** Whether a Delta log exists at the path (the sink creates the table with its first commit). */
  boolean exists() {
    try {
      return table.exists();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Delta table " + tablePath, e);
    }
  }

  /** The table's latest state, empty while the sink has not created it. */
  Optional<TableState> state() {
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

  /**
   * Up to {@code limit} live rows, ordered by their first column, formatted for the console
   * (dates and timestamps as ISO-8601, decimals as plain numbers); the first line is the header.
   */
  List<List<String>> sample(int limit) {
    try {
      Snapshot snapshot = table.snapshot();
      List<StructField> fields = snapshot.schema().fields();
      List<Row> rows = new ArrayList<>();
      try (TableScan scan = table.scan(snapshot, List.of())) {
        scan.forEachRemaining(rows::add);
      }
      // shorter first, then by text: numeric ids sort as numbers
      rows.sort(Comparator.comparing(row -> String.valueOf(row.get(0)), Comparator
          .comparingLong((String text) -> text.length()).thenComparing(Comparator.naturalOrder())));
      List<List<String>> lines = new ArrayList<>();
      lines.add(fields.stream().map(StructField::name).toList());
      for (Row row : rows.subList(0, Math.min(limit, rows.size()))) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
          cells.add(format(fields.get(i).type(), row.get(i)));
        }
        lines.add(cells);
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Delta table " + tablePath, e);
    }
  }

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
