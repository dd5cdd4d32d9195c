package io.mergesink.core.testing;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.mergesink.core.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The independent reader of a table's Change Data Feed in tests: Delta Kernel lists each commit's
 * {@code cdc}, {@code add} and {@code remove} actions ({@link CommitRange}) and reads the change data
 * files with its Parquet handler, as PROTOCOL.md's "Reader Requirements for AddCDCFile" say: a
 * version with {@code cdc} actions is read from them only. A version without any takes its changes
 * from its data files; this reader computes them as the difference between the rows Kernel reads
 * at the version and at the one before (which is what a DV-aware reader derives from {@code add}s
 * and {@code remove}s), and reports how many data-changing {@code remove}s it had so that tests can
 * insist a writer left none there without change data.
 *
 * <p>Partition values are parsed for string, integer, long and date columns; tables without column
 * mapping only.
 */
public final class KernelChangeFeed {
  public static final String INSERT = "insert";
  public static final String DELETE = "delete";
  public static final String UPDATE_PREIMAGE = "update_preimage";
  public static final String UPDATE_POSTIMAGE = "update_postimage";
  private static final String CHANGE_TYPE = "_change_type";

  private KernelChangeFeed() {}

  /** One row-level change: a logical row of the table and its {@code _change_type}. */
  public record Change(Row row, String type) {}

  /**
   * The changes of one version.
   *
   * @param fromChangeDataFiles whether the version has {@code cdc} actions (the changes come from them)
   * @param dataChangingRemoves the version's {@code remove} actions with {@code dataChange=true}
   */
  public record Version(long version, boolean fromChangeDataFiles, int dataChangingRemoves, List<Change> changes) {}

  /** The changes of every version from 0 to the latest, in version order. */
  public static List<Version> read(String tablePath) {
    Snapshot latest = KernelTables.latestSnapshot(tablePath);
    CommitRange range = TableManager.loadCommitRange(tablePath, CommitBoundary.atVersion(0))
        .withEndBoundary(CommitBoundary.atVersion(latest.getVersion())).build(KernelTables.engine());
    List<Version> versions = new ArrayList<>();
    List<Row> before = List.of();
    try (CloseableIterator<CommitActions> commits = range.getCommitActions(KernelTables.engine(), KernelTables.snapshotAt(tablePath, 0),
        Set.of(DeltaAction.CDC, DeltaAction.REMOVE))) {
      while (commits.hasNext()) {
        CommitActions commit = commits.next();
        List<String[]> cdcFiles = new ArrayList<>();
        List<Map<String, String>> cdcPartitions = new ArrayList<>();
        int removes = 0;
        try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
          while (batches.hasNext()) {
            ColumnarBatch batch = batches.next();
            ColumnVector cdc = batch.getColumnVector(batch.getSchema().indexOf(DeltaAction.CDC.colName));
            ColumnVector remove = batch.getColumnVector(batch.getSchema().indexOf(DeltaAction.REMOVE.colName));
            for (int row = 0; row < batch.getSize(); row++) {
              if (!cdc.isNullAt(row)) {
                cdcFiles.add(new String[] {child(cdc, "path").getString(row), Long.toString(child(cdc, "size").getLong(row))});
                cdcPartitions.add(stringMap(child(cdc, "partitionValues").getMap(row)));
              }
              if (!remove.isNullAt(row) && child(remove, "dataChange").getBoolean(row)) {
                removes++;
              }
            }
          }
        }
        long version = commit.getVersion();
        Snapshot snapshot = KernelTables.snapshotAt(tablePath, version);
        List<Row> after = KernelTables.readRows(tablePath, version);
        List<Change> changes = new ArrayList<>();
        if (!cdcFiles.isEmpty()) {
          for (int i = 0; i < cdcFiles.size(); i++) {
            readChangeFile(tablePath, snapshot, cdcFiles.get(i), cdcPartitions.get(i), changes);
          }
        } else {
          changes.addAll(difference(before, after));
        }
        versions.add(new Version(version, !cdcFiles.isEmpty(), removes, changes));
        before = after;
      }
    } catch (Exception e) {
      throw new IllegalStateException("reading the change data feed of " + tablePath + " with Delta Kernel", e);
    }
    return versions;
  }

  /**
   * The rows of a table rebuilt from its feed: starting empty, every insert and postimage added,
   * every delete and preimage taken away (a change that takes away a row not there is an error).
   */
  public static List<Row> rebuild(List<Version> versions) {
    Map<Row, Integer> rows = new LinkedHashMap<>();
    for (Version version : versions) {
      apply(rows, version);
    }
    List<Row> result = new ArrayList<>();
    rows.forEach((row, count) -> {
      for (int i = 0; i < count; i++) {
        result.add(row);
      }
    });
    return result;
  }

  private static void apply(Map<Row, Integer> rows, Version version) {
    for (Change change : version.changes()) {
      if (change.type().equals(INSERT) || change.type().equals(UPDATE_POSTIMAGE)) {
        rows.merge(change.row(), 1, Integer::sum);
      }
    }
    for (Change change : version.changes()) {
      if (change.type().equals(DELETE) || change.type().equals(UPDATE_PREIMAGE)) {
        Integer count = rows.get(change.row());
        if (count == null) {
          throw new IllegalStateException("version " + version.version() + ": " + change.type() + " of " + change.row()
              + ", which the feed of the versions before does not hold");
        }
        if (count == 1) {
          rows.remove(change.row());
        } else {
          rows.put(change.row(), count - 1);
        }
      }
    }
  }

  private static List<Change> difference(List<Row> before, List<Row> after) {
    Map<Row, Integer> counts = new HashMap<>();
    before.forEach(row -> counts.merge(row, -1, Integer::sum));
    after.forEach(row -> counts.merge(row, 1, Integer::sum));
    List<Change> changes = new ArrayList<>();
    counts.forEach((row, count) -> {
      for (int i = 0; i < Math.abs(count); i++) {
        changes.add(new Change(row, count > 0 ? INSERT : DELETE));
      }
    });
    return changes;
  }

  private static void readChangeFile(String tablePath, Snapshot snapshot, String[] file, Map<String, String> partitionValues,
      List<Change> changes) throws IOException {
    StructType schema = snapshot.getSchema();
    Set<String> partitionColumns = Set.copyOf(snapshot.getPartitionColumnNames());
    StructType fileSchema = new StructType();
    for (StructField field : schema.fields()) {
      if (!partitionColumns.contains(field.getName())) {
        fileSchema = fileSchema.add(field);
      }
    }
    fileSchema = fileSchema.add(CHANGE_TYPE, StringType.STRING, true);
    String path = tablePath + "/" + URI.create(file[0]).getPath();
    try (CloseableIterator<ColumnarBatch> batches = KernelTables.engine().getParquetHandler()
        .readParquetFiles(Utils.singletonCloseableIterator(FileStatus.of(path, Long.parseLong(file[1]), 0)), fileSchema, Optional.empty())
        .map(FileReadResult::getData)) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        for (int row = 0; row < batch.getSize(); row++) {
          Object[] values = new Object[schema.length()];
          for (int i = 0; i < schema.length(); i++) {
            StructField field = schema.at(i);
            values[i] = partitionColumns.contains(field.getName())
                ? partitionValue(field.getDataType(), partitionValues.get(field.getName()))
                : KernelTables.value(batch.getColumnVector(fileSchema.indexOf(field.getName())), row);
          }
          String type = batch.getColumnVector(fileSchema.indexOf(CHANGE_TYPE)).getString(row);
          changes.add(new Change(Row.of(values), type));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading change data file " + path, e);
    }
  }

  private static Object partitionValue(DataType type, String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    if (type instanceof StringType) {
      return value;
    } else if (type instanceof IntegerType) {
      return Integer.parseInt(value);
    } else if (type instanceof LongType) {
      return Long.parseLong(value);
    } else if (type instanceof DateType) {
      return (int) LocalDate.parse(value).toEpochDay();
    }
    throw new IllegalArgumentException("no partition value parsing for " + type + " in this test reader");
  }

  private static ColumnVector child(ColumnVector struct, String name) {
    return struct.getChild(((StructType) struct.getDataType()).indexOf(name));
  }

  private static Map<String, String> stringMap(MapValue map) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < map.getSize(); i++) {
      values.put(map.getKeys().getString(i), map.getValues().isNullAt(i) ? null : map.getValues().getString(i));
    }
    return values;
  }
}
