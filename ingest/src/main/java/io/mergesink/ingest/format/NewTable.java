package io.mergesink.ingest.format;

import io.mergesink.core.types.StructType;
import io.mergesink.ingest.options.PartitionField;
import java.util.List;
import java.util.Map;

/**
 * What a table is created with: the schema its table kind derived from the first record, its
 * primary key (empty for append tables), the partitioning of {@code partition.fields} (a format
 * computes the derived partition columns in its own way), table properties, and the writer it needs.
 */
public record NewTable(StructType schema, List<String> keyColumns, List<PartitionField> partitionFields,
    Map<String, String> properties, WriteKind writeKind) {
  public NewTable {
    keyColumns = List.copyOf(keyColumns);
    partitionFields = List.copyOf(partitionFields);
    properties = Map.copyOf(properties);
  }
}
