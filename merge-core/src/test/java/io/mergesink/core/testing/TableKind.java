package io.mergesink.core.testing;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The kinds of table a test can run against: keyed with one of the merge strategies, or append. */
public enum TableKind {
  DELETION_VECTORS(Optional.of(MergeStrategy.DELETION_VECTORS)),
  COPY_ON_WRITE(Optional.of(MergeStrategy.COPY_ON_WRITE)),
  APPEND(Optional.empty());

  private final Optional<MergeStrategy> strategy;

  TableKind(Optional<MergeStrategy> strategy) {
    this.strategy = strategy;
  }

  public boolean isAppend() {
    return strategy.isEmpty();
  }

  /** A table of this kind: keyed by {@code keyColumns}, or an append table without key. */
  public TableSpec spec(StructType schema, List<String> keyColumns, List<String> partitionColumns, Map<String, String> properties) {
    return strategy.map(s -> new TableSpec(schema, keyColumns, partitionColumns, s, properties))
        .orElseGet(() -> TableSpec.append(schema, List.of(), partitionColumns, properties));
  }

  /** An unpartitioned table of this kind. */
  public TableSpec spec(StructType schema, List<String> keyColumns, Map<String, String> properties) {
    return spec(schema, keyColumns, List.of(), properties);
  }

  /** The writer a table of this kind takes, with default options. */
  public TableWriter newWriter(DeltaTable table) throws IOException {
    return strategy.isPresent() ? table.newWriter(WriterOptions.defaults(strategy.get())) : table.newAppendWriter(WriterOptions.defaults());
  }
}
