package io.mergesink.core.table;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a new table looks like: its schema, primary key, how it is written (which decides its
 * protocol: deletion-vector tables need reader v3 / writer v7) and extra Delta table properties.
 *
 * @param keyColumns primary key column names, in key order; empty for append tables
 * @param properties copied into the Delta {@code configuration} (e.g. {@code delta.logRetentionDuration});
 *     those that enable a table feature add it to the protocol, and those MergeSink cannot honour
 *     are refused ({@link TableProperties})
 */
public record TableSpec(StructType schema, List<String> keyColumns, MergeStrategy strategy, Map<String, String> properties) {

  public TableSpec {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(strategy, "strategy");
    keyColumns = List.copyOf(keyColumns);
    properties = Map.copyOf(properties);
    if (strategy != MergeStrategy.APPEND) {
      checkKey(schema, keyColumns, strategy);
    }
    List<TableProperties.Refusal> refusals = TableProperties.refusals(properties, strategy);
    if (!refusals.isEmpty()) {
      throw new IllegalArgumentException("a " + strategy.configName() + " table cannot take the table properties " + refusals);
    }
  }

  private static void checkKey(StructType schema, List<String> keyColumns, MergeStrategy strategy) {
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException("a " + strategy.configName() + " table needs primary key columns; schema " + schema);
    }
    for (String key : keyColumns) {
      StructField field = schema.field(key).orElseThrow(
          () -> new IllegalArgumentException("primary key column '" + key + "' is not in the schema " + schema.fieldNames()));
      if (!KeyColumns.isKeyType(field.type())) {
        throw new IllegalArgumentException("primary key column '" + key + "' has type " + field.type()
            + ", which cannot be a key (nested types are not comparable)");
      }
    }
  }
}
