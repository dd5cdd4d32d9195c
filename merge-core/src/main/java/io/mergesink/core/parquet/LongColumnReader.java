package io.mergesink.core.parquet;

import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.StructField;
import java.io.IOException;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Reads one integer-valued column straight from its column chunks, without assembling rows: how
 * the key index loads a table's BIGINT (or INT, DATE, microsecond TIMESTAMP) keys. The values are
 * those the row reader would return, as longs.
 */
public final class LongColumnReader {
  /** Receives the value of each row, in physical order. */
  @FunctionalInterface
  public interface RowValueConsumer {
    void accept(long rowIndex, long value);
  }

  private LongColumnReader() {}

  /**
   * Calls {@code consumer} with the value of the top-level field {@code column} (a field of a
   * physical schema, found as {@code match} says) for every row.
   *
   * @return false, reading nothing, when the column is missing, nullable-with-nulls handling is
   *     needed, or its physical layout is not a plain INT32/INT64 (e.g. Spark's INT96 timestamps);
   *     the caller then uses {@link DataFileReader}
   * @throws IllegalArgumentException when the column holds a null
   */
  public static boolean read(Storage storage, String path, StructField column, ColumnMatch match, RowValueConsumer consumer)
      throws IOException {
    try (ParquetFileReader reader = DataFileReader.open(storage, path)) {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      Type field = match.find(fileSchema, column);
      if (field == null || !field.isPrimitive() || !isPlainInteger(field.asPrimitiveType())) {
        return false;
      }
      MessageType requested = new MessageType(fileSchema.getName(), field);
      reader.setRequestedSchema(requested);
      ColumnDescriptor descriptor = requested.getColumns().get(0);
      boolean int64 = field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT64;
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      long rowIndex = 0;
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        ColumnReader values = new ColumnReadStoreImpl(rowGroup, NO_RECORDS, requested, createdBy).getColumnReader(descriptor);
        for (long i = 0; i < rowGroup.getRowCount(); i++) {
          if (values.getCurrentDefinitionLevel() < descriptor.getMaxDefinitionLevel()) {
            throw new IllegalArgumentException("data file " + path + ": column '" + column.name() + "' is null at row " + rowIndex);
          }
          consumer.accept(rowIndex++, int64 ? values.getLong() : values.getInteger());
          values.consume();
        }
      }
      return true;
    }
  }

  private static boolean isPlainInteger(PrimitiveType type) {
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    return switch (type.getPrimitiveTypeName()) {
      case INT64 -> annotation == null || annotation instanceof IntLogicalTypeAnnotation
          || (annotation instanceof TimestampLogicalTypeAnnotation timestamp && timestamp.getUnit() == TimeUnit.MICROS);
      case INT32 -> annotation == null || annotation instanceof IntLogicalTypeAnnotation || annotation instanceof DateLogicalTypeAnnotation;
      default -> false;
    };
  }

  /** Column readers want a record converter; values read directly never reach it. */
  private static final GroupConverter NO_RECORDS = new GroupConverter() {
    private final PrimitiveConverter unused = new PrimitiveConverter() {};

    @Override
    public org.apache.parquet.io.api.Converter getConverter(int fieldIndex) {
      return unused;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  };
}
