package io.mergesink.bench.spark;

import io.mergesink.bench.CdcRows;
import io.mergesink.core.changes.ChangeSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** A merge-core {@link ChangeSet} of {@link CdcRows} as a local Spark DataFrame with an {@code op} column ({@code u} or {@code d}). */
final class SparkRows {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;
  static final StructType SCHEMA = new StructType()
      .add("id", DataTypes.LongType, false)
      .add("name", DataTypes.StringType, true)
      .add("amount", DataTypes.createDecimalType(12, 2), true)
      .add("updated_at", DataTypes.TimestampType, true)
      .add("quantity", DataTypes.IntegerType, true)
      .add("op", DataTypes.StringType, false);

  private SparkRows() {}

  static Dataset<Row> changes(SparkSession spark, ChangeSet changes) {
    List<Row> rows = new ArrayList<>(changes.upserts().size() + changes.deletes().size());
    for (io.mergesink.core.data.Row upsert : changes.upserts()) {
      long micros = (Long) upsert.get(3);
      Instant updatedAt = Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
          Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO);
      rows.add(RowFactory.create(upsert.get(0), upsert.get(1), upsert.get(2), updatedAt, upsert.get(4), "u"));
    }
    for (io.mergesink.core.data.Row key : changes.deletes()) {
      rows.add(RowFactory.create(key.get(0), null, null, null, null, "d"));
    }
    return spark.createDataFrame(rows, SCHEMA);
  }
}
