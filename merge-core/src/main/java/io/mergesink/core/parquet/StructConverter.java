package io.mergesink.core.parquet;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Assembles a {@link Row} of the read struct from a (clipped) Parquet group. Fields the file lacks
 * stay null; a file field kept only to detect null structs is decoded and dropped.
 */
final class StructConverter extends GroupConverter {
  private final Converter[] children;
  private final int width;
  private final ValueSink sink;
  private Object[] values;

  /**
   * @param sink receives each assembled row; null for the root, whose row {@link #current()} returns
   */
  StructConverter(StructType read, GroupType file, ColumnMatch match, ValueSink sink, String column) {
    this.width = read.size();
    this.sink = sink;
    this.children = new Converter[file.getFieldCount()];
    String prefix = column.isEmpty() ? "" : column + ".";
    for (int i = 0; i < children.length; i++) {
      Type fileField = file.getType(i);
      int ordinal = match.ordinalIn(read, fileField);
      if (ordinal < 0) {
        children[i] = DiscardingConverter.of(fileField);
      } else {
        StructField field = read.field(ordinal);
        children[i] = Converters.of(field.type(), fileField, match, value -> values[ordinal] = value,
            prefix + field.name());
      }
    }
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return children[fieldIndex];
  }

  @Override
  public void start() {
    values = new Object[width];
  }

  @Override
  public void end() {
    if (sink != null) {
      sink.set(Row.of(values));
    }
  }

  /** The row assembled last (for the root converter). */
  Row current() {
    return Row.of(values);
  }
}
