package io.mergesink.core.scan;

import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.parquet.ColumnMatch;
import io.mergesink.core.parquet.DataFileReader;
import io.mergesink.core.partition.PartitionValues;
import io.mergesink.core.snapshot.InvalidTableException;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.types.TypeChanges;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the data files of a snapshot as rows of its logical columns (docs/design.md, "Reading
 * tables"): data columns by their physical names, or by Parquet field id in column mapping mode
 * {@code id}; partition columns from the file's {@code partitionValues} (keyed by physical name),
 * never from the file; values of files written before a type widening widened to the column's
 * type. Rows come in physical order, deleted ones included (deletion vectors are the caller's).
 *
 * <p>Immutable; one per snapshot and projection.
 */
public final class LogicalFileReader {
  private final Storage storage;
  private final String tableRoot;
  private final StructType readSchema;
  private final StructType dataSchema;
  private final ColumnMatch match;
  /** Per read column: its position in {@link #dataSchema}, or -1 for a partition column. */
  private final int[] dataOrdinals;
  /** Per read column: its key in {@code partitionValues}, or null for a data column. */
  private final String[] partitionKeys;

  private LogicalFileReader(Storage storage, String tableRoot, StructType readSchema, StructType dataSchema, ColumnMatch match,
      int[] dataOrdinals, String[] partitionKeys) {
    this.storage = storage;
    this.tableRoot = tableRoot;
    this.readSchema = readSchema;
    this.dataSchema = dataSchema;
    this.match = match;
    this.dataOrdinals = dataOrdinals;
    this.partitionKeys = partitionKeys;
  }

  /**
   * A reader of {@code columns} (all when empty, else in the given order) of {@code snapshot}'s files.
   *
   * @throws IllegalArgumentException when a column is not in the schema, or the table's column
   *     mapping or type changes cannot be read correctly (the message names the table)
   */
  public static LogicalFileReader of(Storage storage, Snapshot snapshot, List<String> columns) {
    StructType schema = snapshot.schema();
    StructType readSchema = columns.isEmpty() ? schema : schema.select(columns);
    String root = snapshot.tableRoot();
    try {
      TypeChanges.check(schema);
      DataLayout layout = DataLayout.of(schema, snapshot.metadata().partitionColumns(), snapshot.columnMapping());
      List<StructField> dataFields = new ArrayList<>();
      int[] dataOrdinals = new int[readSchema.size()];
      String[] partitionKeys = new String[readSchema.size()];
      for (int i = 0; i < readSchema.size(); i++) {
        int ordinal = schema.indexOf(readSchema.field(i).name());
        partitionKeys[i] = layout.partitionKey(ordinal);
        if (partitionKeys[i] != null) {
          dataOrdinals[i] = -1;
        } else {
          dataOrdinals[i] = dataFields.size();
          dataFields.add(layout.dataSchema().field(layout.dataOrdinal(ordinal)));
        }
      }
      return new LogicalFileReader(storage, root, readSchema, new StructType(dataFields), layout.match(), dataOrdinals, partitionKeys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("table " + root + ": " + e.getMessage(), e);
    }
  }

  /** The logical schema of the rows returned. */
  public StructType schema() {
    return readSchema;
  }

  /**
   * The data file field that read column {@code column} comes from (physical name, column id),
   * or null for a partition column; found in files as {@link #match()} says.
   */
  public StructField dataField(int column) {
    return dataOrdinals[column] < 0 ? null : dataSchema.field(dataOrdinals[column]);
  }

  /** How {@link #dataField} finds its field in a data file. */
  public ColumnMatch match() {
    return match;
  }

  /**
   * The rows of {@code file}, in physical order. The caller closes the iterator.
   *
   * @throws IOException when the file cannot be opened
   * @throws InvalidTableException when the file lacks a partition column's value, or a value does
   *     not parse as the column's type (the message names file and column)
   * @throws IllegalArgumentException when a column of the file cannot be read as its table type
   */
  public CloseableIterator<Row> read(AddFile file) throws IOException {
    Object[] partitionValues = partitionValues(file);
    CloseableIterator<Row> data = DataFileReader.read(storage, LogPaths.resolve(tableRoot, file.path()), dataSchema, match);
    if (dataSchema.size() == readSchema.size()) {
      return data;
    }
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return data.hasNext();
      }

      @Override
      public Row next() {
        Row stored = data.next();
        Object[] values = new Object[dataOrdinals.length];
        for (int i = 0; i < values.length; i++) {
          values[i] = dataOrdinals[i] < 0 ? partitionValues[i] : stored.get(dataOrdinals[i]);
        }
        return Row.of(values);
      }

      @Override
      public void close() throws IOException {
        data.close();
      }
    };
  }

  /**
   * The values of {@code hiddenColumns} (physical columns outside the table's schema: the
   * materialized row tracking columns) of {@code file}'s rows, in physical order, null where the
   * file lacks them. The caller closes the iterator.
   *
   * @throws IOException when the file cannot be opened
   */
  public CloseableIterator<Row> readHidden(AddFile file, StructType hiddenColumns) throws IOException {
    return DataFileReader.read(storage, LogPaths.resolve(tableRoot, file.path()), hiddenColumns, match);
  }

  /**
   * The rows at {@code rowIndexes} (ascending, distinct physical positions, deleted rows counted)
   * of {@code file}; the i-th row is the one at {@code rowIndexes[i]}. Reads only the row groups
   * holding them ({@link DataFileReader#readAt}).
   *
   * @throws IOException when the file cannot be read or lacks one of the positions
   * @throws InvalidTableException see {@link #read}
   */
  public Row[] readAt(AddFile file, long[] rowIndexes) throws IOException {
    Object[] partitionValues = partitionValues(file);
    Row[] stored = DataFileReader.readAt(storage, LogPaths.resolve(tableRoot, file.path()), dataSchema, match, rowIndexes);
    if (dataSchema.size() == readSchema.size()) {
      return stored;
    }
    Row[] rows = new Row[stored.length];
    for (int r = 0; r < rows.length; r++) {
      Object[] values = new Object[dataOrdinals.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = dataOrdinals[i] < 0 ? partitionValues[i] : stored[r].get(dataOrdinals[i]);
      }
      rows[r] = Row.of(values);
    }
    return rows;
  }

  /** Per read column, the file's parsed partition value (null for data columns). */
  private Object[] partitionValues(AddFile file) {
    Object[] values = new Object[partitionKeys.length];
    Map<String, String> serialized = file.partitionValues();
    for (int i = 0; i < partitionKeys.length; i++) {
      if (partitionKeys[i] == null) {
        continue;
      }
      if (!serialized.containsKey(partitionKeys[i])) {
        throw new InvalidTableException("table " + tableRoot + ": data file " + file.path() + " has no value for partition column '"
            + readSchema.field(i).name() + "' (key '" + partitionKeys[i] + "') in its partitionValues " + serialized);
      }
      try {
        values[i] = PartitionValues.parse(readSchema.field(i).type(), serialized.get(partitionKeys[i]));
      } catch (IllegalArgumentException e) {
        throw new InvalidTableException("table " + tableRoot + ": data file " + file.path() + ", partition column '"
            + readSchema.field(i).name() + "': " + e.getMessage());
      }
    }
    return values;
  }
}
