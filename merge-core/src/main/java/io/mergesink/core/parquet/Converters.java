package io.mergesink.core.parquet;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.StructType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.schema.Type;

/** Picks the converter for a (Delta read type, Parquet file type) pair. */
final class Converters {
  private Converters() {}

  /**
   * A converter that decodes values of {@code file} as {@code read} into {@code sink}. The
   * repetition of {@code file} is ignored: the caller has handled it.
   *
   * @throws IllegalArgumentException when the file's type cannot be read as {@code read}
   */
  static Converter of(DataType read, Type file, ColumnMatch match, ValueSink sink, String column) {
    if (file.isPrimitive()) {
      return PrimitiveConverters.of(read, file.asPrimitiveType(), sink, column);
    }
    if (read instanceof StructType struct && !ParquetProjection.isList(file) && !ParquetProjection.isMap(file)) {
      return new StructConverter(struct, file.asGroupType(), match, sink, column);
    }
    if (read instanceof ArrayType array && ParquetProjection.isList(file)) {
      return new ListConverter(array, file.asGroupType(), match, sink, column);
    }
    if (read instanceof MapType map && ParquetProjection.isMap(file)) {
      return new MapConverter(map, file.asGroupType(), match, sink, column);
    }
    throw new IllegalArgumentException("column '" + column + "' is read as " + read
        + " but the file stores it as Parquet " + file);
  }
}
