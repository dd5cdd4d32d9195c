package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.HadoopStorage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta Kernel's own Parquet reader decodes our files to the values we wrote. */
class KernelReadsOurFilesTest {
  @TempDir
  Path dir;

  @Test
  void kernelReadsEveryPrimitiveAndNestedValue() throws IOException {
    String path = dir.resolve("all.parquet").toString();
    WrittenFile file;
    try (DataFileWriter writer = DataFileWriter.open(HadoopStorage.withDefaults(), path, AllTypes.SCHEMA,
        ParquetWriteOptions.defaults())) {
      for (Row row : AllTypes.rows()) {
        writer.write(row);
      }
      file = writer.finish();
    }

    StructType schema = new StructType()
        .add("id", LongType.LONG, false)
        .add("b", ByteType.BYTE)
        .add("s", ShortType.SHORT)
        .add("str", StringType.STRING)
        .add("day", DateType.DATE)
        .add("ts", TimestampType.TIMESTAMP)
        .add("ts_ntz", TimestampNTZType.TIMESTAMP_NTZ)
        .add("dec5", new DecimalType(5, 2))
        .add("dec18", new DecimalType(18, 4))
        .add("dec38", new DecimalType(38, 10))
        .add("nested", new StructType().add("n", LongType.LONG, false));
    List<Row> expected = AllTypes.rows();
    int row = 0;
    try (CloseableIterator<ColumnarBatch> batches = DefaultEngine.create(new Configuration()).getParquetHandler()
        .readParquetFiles(Utils.singletonCloseableIterator(FileStatus.of(path, file.sizeBytes(), 0)), schema,
            Optional.empty()).map(FileReadResult::getData)) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        for (int r = 0; r < batch.getSize(); r++, row++) {
          final int i = r;
          Row want = expected.get(row);
          assertThat(batch.getColumnVector(0).getLong(i)).isEqualTo(want.get(0));
          assertThat(value(batch.getColumnVector(1), i, v -> v.getByte(i))).isEqualTo(want.get(2));
          assertThat(value(batch.getColumnVector(2), i, v -> v.getShort(i))).isEqualTo(want.get(3));
          assertThat(value(batch.getColumnVector(3), i, v -> v.getString(i))).isEqualTo(want.get(7));
          assertThat(value(batch.getColumnVector(4), i, v -> v.getInt(i))).isEqualTo(want.get(9));
          assertThat(value(batch.getColumnVector(5), i, v -> v.getLong(i))).isEqualTo(want.get(10));
          assertThat(value(batch.getColumnVector(6), i, v -> v.getLong(i))).isEqualTo(want.get(11));
          assertThat(value(batch.getColumnVector(7), i, v -> v.getDecimal(i))).isEqualTo(want.get(12));
          assertThat(value(batch.getColumnVector(8), i, v -> v.getDecimal(i))).isEqualTo(want.get(13));
          assertThat(value(batch.getColumnVector(9), i, v -> v.getDecimal(i))).isEqualTo(want.get(14));
          Row nested = (Row) want.get(18);
          ColumnVector nestedVector = batch.getColumnVector(10);
          assertThat(nestedVector.isNullAt(i)).isEqualTo(nested == null);
          if (nested != null) {
            assertThat(nestedVector.getChild(0).getLong(i)).isEqualTo(nested.get(1));
          }
        }
      }
    }
    assertThat(row).isEqualTo(expected.size());
    assertThat(((BigDecimal) expected.get(0).get(14)).scale()).isEqualTo(10);
  }

  private static Object value(ColumnVector vector, int row, java.util.function.Function<ColumnVector, Object> getter) {
    return vector.isNullAt(row) ? null : getter.apply(vector);
  }
}
