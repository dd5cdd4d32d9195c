package io.mergesink.core.table;

import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a new table looks like: its schema, primary key, partition columns, how it is written (a keyed
 * table with its merge strategy, which decides its protocol: deletion-vector tables need reader v3 /
 * writer v7; or an append table, which only adds rows) and extra Delta table properties.
 *
 * @param schema the columns; a field whose metadata holds a generation expression is a generated
 *     column ({@link GeneratedColumns}), which MergeSink computes
 * @param keyColumns primary key column names, in key order; may be empty for append tables
 * @param partitionColumns the columns the table is partitioned by, in directory order; empty for an
 *     unpartitioned table
 * @param strategy how change sets land in a keyed table; empty for an append table
 * @param properties copied into the Delta {@code configuration} (e.g. {@code delta.logRetentionDuration});
 *     those that enable a table feature add it to the protocol, and those MergeSink cannot honour
 *     are refused ({@link TableProperties})
 */
public record TableSpec(StructType schema, List<String> keyColumns, List<String> partitionColumns,
    Optional<MergeStrategy> strategy, Map<String, String> properties) {

  public TableSpec {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(strategy, "strategy");
    keyColumns = List.copyOf(keyColumns);
    partitionColumns = List.copyOf(partitionColumns);
    properties = Map.copyOf(properties);
    GeneratedColumns generated = GeneratedColumns.of(schema);
    if (strategy.isPresent()) {
      checkKey(schema, keyColumns, strategy.get(), generated);
    }
    checkPartitioning(schema, partitionColumns);
    List<TableProperties.Refusal> refusals = TableProperties.refusals(properties, strategy);
    if (!refusals.isEmpty()) {
      throw new IllegalArgumentException("a " + strategy.map(MergeStrategy::configName).orElse("append") + " table cannot take the"
          + " table properties " + refusals);
    }
  }

  /** A keyed table written with {@code strategy}. */
  public TableSpec(StructType schema, List<String> keyColumns, List<String> partitionColumns, MergeStrategy strategy,
      Map<String, String> properties) {
    this(schema, keyColumns, partitionColumns, Optional.of(strategy), properties);
  }

  /** An unpartitioned keyed table written with {@code strategy}. */
  public TableSpec(StructType schema, List<String> keyColumns, MergeStrategy strategy, Map<String, String> properties) {
    this(schema, keyColumns, List.of(), strategy, properties);
  }

  /** An append table; {@code keyColumns}, when given, are recorded as its primary key. */
  public static TableSpec append(StructType schema, List<String> keyColumns, List<String> partitionColumns,
      Map<String, String> properties) {
    return new TableSpec(schema, keyColumns, partitionColumns, Optional.empty(), properties);
  }

  /** An unpartitioned append table without primary key. */
  public static TableSpec append(StructType schema, Map<String, String> properties) {
    return append(schema, List.of(), List.of(), properties);
  }

  /** Whether the table only adds rows (no merge strategy). */
  public boolean isAppend() {
    return strategy.isEmpty();
  }

  private static void checkKey(StructType schema, List<String> keyColumns, MergeStrategy strategy, GeneratedColumns generated) {
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException("a " + strategy.configName() + " table needs primary key columns; schema " + schema);
    }
    for (String key : keyColumns) {
      StructField field = schema.field(key).orElseThrow(
          () -> new IllegalArgumentException("primary key column '" + key + "' is not in the schema " + schema.fieldNames()));
      if (!PrimaryKeyProperty.isKeyType(field.type())) {
        throw new IllegalArgumentException("primary key column '" + key + "' has type " + field.type()
            + ", which cannot be a key (nested types are not comparable)");
      }
      if (generated.isGenerated(key)) {
        throw new IllegalArgumentException("primary key column '" + key + "' is a generated column; a delete carries only its key,"
            + " from which it cannot be computed");
      }
    }
  }

  /**
   * Partition columns must be distinct columns of the schema, of a type whose values Delta writes
   * as partition values (not binary, not nested), and leave at least one data column (as Delta requires).
   */
  static void checkPartitioning(StructType schema, List<String> partitionColumns) {
    Set<String> seen = new HashSet<>();
    for (String column : partitionColumns) {
      StructField field = schema.field(column).orElseThrow(
          () -> new IllegalArgumentException("partition column '" + column + "' is not in the schema " + schema.fieldNames()));
      if (!seen.add(column.toLowerCase(java.util.Locale.ROOT))) {
        throw new IllegalArgumentException("partition column '" + column + "' is named twice in " + partitionColumns);
      }
      if (!ProtocolSupport.isPartitionType(field)) {
        throw new IllegalArgumentException("partition column '" + column + "' has type " + field.type()
            + "; partition columns are strings, numbers, booleans, dates or timestamps");
      }
    }
    if (!partitionColumns.isEmpty() && partitionColumns.size() >= schema.size()) {
      throw new IllegalArgumentException("a table cannot be partitioned by all its columns " + schema.fieldNames()
          + ": its data files would hold no column");
    }
  }
}
