package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.changes.ReadSet;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.changes.StoredRow;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.KeyIndex;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.index.RowLocation;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.format.iceberg.IcebergKeyIndex.TrackedFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The {@link LiveRows} of an Iceberg table, as its writer's {@link IcebergKeyIndex} holds them at
 * one snapshot. Lookups read nothing; rows are read from their data files with Iceberg's Parquet
 * reader and delete filter ({@link DataFileRows}), only the files that hold them. Valid until the
 * writer's next commit or refresh.
 *
 * <p>What it reads is recorded as of the snapshot's id (the read set's version): per key, where its
 * live rows were; after {@link #readAll}, every data file with the delete files that apply to it.
 */
final class IcebergLiveRows implements LiveRows {
  /** The read set's version of an empty table, which has no snapshot. */
  static final long NO_SNAPSHOT = -1;

  private final Table table;
  private final Schema schema;
  private final IcebergKeyIndex index;
  private final String currentColumn;
  private final ReadSet.Rows rows;
  private final ReadSet.Recorder reads;

  IcebergLiveRows(Table table, IcebergKeyIndex index) {
    this.table = table;
    this.schema = table.schema();
    this.index = index;
    this.currentColumn = CurrentRowColumn.of(table.properties()).orElse(null);
    this.rows = index.rows();
    this.reads = new ReadSet.Recorder(version(index.snapshotId()));
  }

  /** The read set's version of the snapshot {@code snapshotId} (null: none). */
  static long version(Long snapshotId) {
    return snapshotId == null ? NO_SNAPSHOT : snapshotId;
  }

  @Override
  public String tableRoot() {
    return table.location();
  }

  @Override
  public StructType schema() {
    return IcebergSchemas.fromIceberg(schema);
  }

  @Override
  public StructType keySchema() {
    return index.keySchema();
  }

  @Override
  public ReadSet reads() {
    return reads.readSet();
  }

  /** Reads no file. */
  @Override
  public boolean[] contain(Row[] keys) {
    boolean[] found = new boolean[keys.length];
    for (int i = 0; i < keys.length; i++) {
      found[i] = index.lookup(keys[i]) != KeyIndex.NO_LOCATION;
      reads.key(rows, keys[i]);
    }
    return found;
  }

  /** Reads each file holding such rows once, only {@code columns}. */
  @Override
  public Row[] read(Row[] keys, List<String> columns) throws IOException {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("Iceberg table " + table.name() + ": reading live rows needs at least one column");
    }
    for (String column : columns) {
      if (schema.findField(column) == null) {
        throw new IllegalArgumentException("column '" + column + "' is not in Iceberg table " + table.name());
      }
    }
    Row[] found = new Row[keys.length];
    Map<String, TreeMap<Long, List<Integer>>> wantedByFile = new HashMap<>();
    Map<String, TrackedFile> files = new HashMap<>();
    for (int i = 0; i < keys.length; i++) {
      reads.key(rows, keys[i]);
      long location = index.lookup(keys[i]);
      if (location == KeyIndex.MULTIPLE_LOCATIONS) {
        location = index.locations(keys[i])[0]; // the one the writer fills unchanged columns from
      }
      if (location != KeyIndex.NO_LOCATION) {
        TrackedFile file = index.file(location);
        files.put(file.file().location(), file);
        wantedByFile.computeIfAbsent(file.file().location(), path -> new TreeMap<>())
            .computeIfAbsent(RowLocation.rowIndex(location), row -> new ArrayList<>(1)).add(i);
      }
    }
    for (Map.Entry<String, TreeMap<Long, List<Integer>>> file : wantedByFile.entrySet()) {
      TreeMap<Long, List<Integer>> wanted = file.getValue();
      readFile(files.get(file.getKey()), columns, (position, row) -> {
        List<Integer> ofRow = wanted.get(position);
        if (ofRow != null) {
          ofRow.forEach(key -> found[key] = row);
        }
      });
    }
    return found;
  }

  /**
   * Reads every data file of the snapshot; a row counts when the index holds it (current, in a
   * history table; not deleted by another engine's equality deletes).
   */
  @Override
  public List<Row> readAll() throws IOException {
    reads.wholeScope(rows);
    List<String> columns = columnNames();
    int current = currentColumn == null ? -1 : columns.indexOf(currentColumn);
    int[] keyOrdinals = index.keySchema().fieldNames().stream().mapToInt(columns::indexOf).toArray();
    List<Row> found = new ArrayList<>();
    for (TrackedFile file : index.files()) {
      String path = file.file().location();
      readFile(file, columns, (position, row) -> {
        if ((current < 0 || CurrentRowColumn.isCurrent(row.get(current))) && rows.positions(row.project(keyOrdinals))
            .contains(new RowPosition(path, position))) {
          found.add(row);
        }
      });
    }
    return found;
  }

  /**
   * Reads, all columns, the data files whose key column bounds (Iceberg's column metrics) may hold
   * one of the keys; a key column of another type than int, long or string does not prune.
   */
  @Override
  public List<StoredRow> rowsOfKeys(Collection<Row> keys) throws IOException {
    List<StoredRow> found = new ArrayList<>();
    if (keys.isEmpty()) {
      return found;
    }
    keys.forEach(key -> reads.key(rows, key));
    StructType keySchema = index.keySchema();
    KeySet wanted = KeySet.create(keySchema, keys.size());
    keys.forEach(wanted::add);
    List<String> columns = columnNames();
    int[] keyOrdinals = keySchema.fieldNames().stream().mapToInt(columns::indexOf).toArray();
    InclusiveMetricsEvaluator mayHold = new InclusiveMetricsEvaluator(schema, keyFilter(keySchema, keys));
    for (TrackedFile file : index.files()) {
      if (!mayHold.eval(file.file())) {
        continue;
      }
      String path = file.file().location();
      readFile(file, columns, (position, row) -> {
        if (wanted.contains(row.project(keyOrdinals))) {
          found.add(new StoredRow(new RowPosition(path, position), row));
        }
      });
    }
    return found;
  }

  /** Per key column of a type whose bounds prune, its values among {@code keys}. */
  private Expression keyFilter(StructType keySchema, Collection<Row> keys) {
    Expression filter = Expressions.alwaysTrue();
    for (int k = 0; k < keySchema.size(); k++) {
      String column = keySchema.field(k).name();
      Type.TypeID type = schema.findType(column).typeId();
      if (type != Type.TypeID.INTEGER && type != Type.TypeID.LONG && type != Type.TypeID.STRING) {
        continue;
      }
      Set<Object> values = new LinkedHashSet<>();
      for (Row key : keys) {
        Object value = key.get(k);
        values.add(type == Type.TypeID.INTEGER ? ((Number) value).intValue() : type == Type.TypeID.LONG ? ((Number) value).longValue()
            : value.toString());
      }
      filter = Expressions.and(filter, Expressions.in(column, values.toArray()));
    }
    return filter;
  }

  private List<String> columnNames() {
    return schema.columns().stream().map(Types.NestedField::name).toList();
  }

  /** What reading a file gives, per live row: its position and its values of the columns read. */
  @FunctionalInterface
  private interface RowConsumer {
    void accept(long position, Row row);
  }

  /** Reads the live rows of {@code file}, {@code columns} only, into {@code each}. */
  private void readFile(TrackedFile file, List<String> columns, RowConsumer each) throws IOException {
    DataFileRows.Rows read = DataFileRows.read(table.io(), schema, file.file(), file.positionDeletes(), columns);
    int[] ordinals = read.ordinals();
    List<Type> types = columns.stream().map(schema::findType).toList();
    try (CloseableIterable<Record> records = read.records()) {
      for (Record record : records) {
        Object[] values = new Object[ordinals.length];
        for (int i = 0; i < ordinals.length; i++) {
          values[i] = IcebergRows.fromIceberg(types.get(i), record.get(ordinals[i]));
        }
        each.accept((Long) record.get(read.position()), Row.of(values));
      }
    }
  }
}
