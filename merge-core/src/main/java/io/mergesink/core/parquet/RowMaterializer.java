package io.mergesink.core.parquet;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/** Turns the records of a clipped file schema into {@link Row}s of the read schema. */
final class RowMaterializer extends RecordMaterializer<Row> {
  private final StructConverter root;

  RowMaterializer(StructType readSchema, MessageType requestedSchema, ColumnMatch match) {
    this.root = new StructConverter(readSchema, requestedSchema, match, null, "");
  }

  @Override
  public Row getCurrentRecord() {
    return root.current();
  }

  @Override
  public GroupConverter getRootConverter() {
    return root;
  }
}
