package io.mergesink.core.layout;

import io.mergesink.core.data.Row;
import io.mergesink.core.parquet.ColumnMatch;
import io.mergesink.core.partition.PartitionValues;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each logical column of a table lives (PROTOCOL.md, "Partition Value Serialization" and
 * "Column Mapping"): a partition column in {@code add.partitionValues}, keyed by its physical name,
 * and in the file's directory; every other column in the data file, under its physical name with its
 * column id as Parquet field id. Immutable; one per snapshot schema.
 */
public final class DataLayout {
  private final StructType schema;
  private final int[] partitionOrdinals;
  private final String[] partitionKeys;
  private final int[] dataOrdinals;
  private final StructType dataSchema;
  private final ColumnMatch match;
  private final Partition unpartitioned = new Partition(Map.of(), "");

  private DataLayout(StructType schema, int[] partitionOrdinals, String[] partitionKeys, int[] dataOrdinals, StructType dataSchema,
      ColumnMatch match) {
    this.schema = schema;
    this.partitionOrdinals = partitionOrdinals;
    this.partitionKeys = partitionKeys;
    this.dataOrdinals = dataOrdinals;
    this.dataSchema = dataSchema;
    this.match = match;
  }

  /**
   * The layout of {@code snapshot}'s table.
   *
   * @throws IllegalArgumentException naming the table when a partition column is not in the schema,
   *     or a column lacks the physical name or id its column mapping mode needs
   */
  public static DataLayout of(Snapshot snapshot) {
    try {
      return of(snapshot.schema(), snapshot.metadata().partitionColumns(), snapshot.columnMapping());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("table " + snapshot.tableRoot() + ": " + e.getMessage(), e);
    }
  }

  /** The layout of a table with {@code schema}, {@code partitionColumns} (in the metadata's order) and column mapping {@code mode}. */
  public static DataLayout of(StructType schema, List<String> partitionColumns, ColumnMapping.Mode mode) {
    int[] partitionOrdinals = new int[partitionColumns.size()];
    String[] partitionKeys = new String[partitionColumns.size()];
    boolean[] isPartition = new boolean[schema.size()];
    for (int i = 0; i < partitionOrdinals.length; i++) {
      partitionOrdinals[i] = indexIgnoringCase(schema, partitionColumns.get(i));
      if (partitionOrdinals[i] < 0) {
        throw new IllegalArgumentException("partition column '" + partitionColumns.get(i) + "' is not in the schema " + schema.fieldNames());
      }
      isPartition[partitionOrdinals[i]] = true;
      partitionKeys[i] = ColumnMapping.physicalName(schema.field(partitionOrdinals[i]), mode);
    }
    int[] dataOrdinals = new int[schema.size() - partitionOrdinals.length];
    List<StructField> dataFields = new ArrayList<>(dataOrdinals.length);
    for (int i = 0, d = 0; i < schema.size(); i++) {
      if (!isPartition[i]) {
        dataOrdinals[d++] = i;
        dataFields.add(schema.field(i));
      }
    }
    StructType dataSchema = ColumnMapping.physicalSchema(new StructType(dataFields), mode);
    ColumnMatch match = mode == ColumnMapping.Mode.ID ? ColumnMatch.BY_FIELD_ID : ColumnMatch.BY_NAME;
    return new DataLayout(schema, partitionOrdinals, partitionKeys, dataOrdinals, dataSchema, match);
  }

  /** The logical schema. */
  public StructType schema() {
    return schema;
  }

  /** The schema of the data files: the columns that are not partition columns, under their physical names, with their metadata (column ids). */
  public StructType dataSchema() {
    return dataSchema;
  }

  /** How a read finds {@link #dataSchema()}'s fields in a data file: by name, or by field id in column mapping mode {@code id}. */
  public ColumnMatch match() {
    return match;
  }

  public boolean isPartitioned() {
    return partitionOrdinals.length > 0;
  }

  /** The key in {@code partitionValues} of logical column {@code ordinal}, or null when it is a data column. */
  public String partitionKey(int ordinal) {
    for (int i = 0; i < partitionOrdinals.length; i++) {
      if (partitionOrdinals[i] == ordinal) {
        return partitionKeys[i];
      }
    }
    return null;
  }

  /** The position in {@link #dataSchema()} of logical column {@code ordinal}, or -1 for a partition column. */
  public int dataOrdinal(int ordinal) {
    for (int i = 0; i < dataOrdinals.length; i++) {
      if (dataOrdinals[i] == ordinal) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The partition a logical row belongs to.
   *
   * @throws IllegalArgumentException when a partition value cannot be written (a binary column)
   */
  public Partition partitionOf(Row row) {
    if (partitionOrdinals.length == 0) {
      return unpartitioned;
    }
    Map<String, String> values = new LinkedHashMap<>();
    StringBuilder directory = new StringBuilder();
    for (int i = 0; i < partitionOrdinals.length; i++) {
      StructField column = schema.field(partitionOrdinals[i]);
      String serialized;
      try {
        serialized = PartitionValues.serialize(column.type(), row.get(partitionOrdinals[i]));
      } catch (IllegalArgumentException | ClassCastException e) {
        throw new IllegalArgumentException("partition column '" + column.name() + "': " + e.getMessage(), e);
      }
      values.put(partitionKeys[i], serialized);
      directory.append(i == 0 ? "" : "/").append(PartitionValues.directoryName(partitionKeys[i], serialized));
    }
    return new Partition(Collections.unmodifiableMap(values), directory.toString());
  }

  /** The values of a logical row that go into its data file, in {@link #dataSchema()} order (the row itself when unpartitioned). */
  public Row dataRow(Row row) {
    if (partitionOrdinals.length == 0) {
      return row;
    }
    return row.project(dataOrdinals);
  }

  /**
   * A partition: its {@code partitionValues} (physical name → serialized value, null for null) and
   * its directory relative to the table root ({@code region=eu/day=2026-01-01}, "" when unpartitioned;
   * a file system path, not yet URI-encoded).
   */
  public record Partition(Map<String, String> values, String directory) {}

  private static int indexIgnoringCase(StructType schema, String name) {
    int exact = schema.indexOf(name);
    if (exact >= 0) {
      return exact;
    }
    for (int i = 0; i < schema.size(); i++) {
      if (schema.field(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }
}
