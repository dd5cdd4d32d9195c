package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class ParquetSchemasTest {

  @Test
  void mapsEveryDeltaTypeToSparksParquetLayout() {
    StructType schema = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("flag", PrimitiveType.BOOLEAN, true),
        new StructField("b", PrimitiveType.BYTE, true),
        new StructField("s", PrimitiveType.SHORT, true),
        new StructField("i", PrimitiveType.INTEGER, true),
        new StructField("f", PrimitiveType.FLOAT, true),
        new StructField("d", PrimitiveType.DOUBLE, true),
        new StructField("str", PrimitiveType.STRING, true),
        new StructField("bin", PrimitiveType.BINARY, true),
        new StructField("day", PrimitiveType.DATE, true),
        new StructField("ts", PrimitiveType.TIMESTAMP, true),
        new StructField("ts_ntz", PrimitiveType.TIMESTAMP_NTZ, true),
        new StructField("dec5", new DecimalType(5, 2), true),
        new StructField("dec18", new DecimalType(18, 4), true),
        new StructField("dec38", new DecimalType(38, 10), true),
        new StructField("arr", new ArrayType(PrimitiveType.STRING, true), true),
        new StructField("ints", new ArrayType(PrimitiveType.INTEGER, false), true),
        new StructField("m", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true), true),
        new StructField("st", StructType.of(
            new StructField("x", PrimitiveType.INTEGER, true),
            new StructField("y", PrimitiveType.STRING, false)), true));

    MessageType expected = MessageTypeParser.parseMessageType("""
        message spark_schema {
          required int64 id;
          optional boolean flag;
          optional int32 b (INTEGER(8,true));
          optional int32 s (INTEGER(16,true));
          optional int32 i;
          optional float f;
          optional double d;
          optional binary str (STRING);
          optional binary bin;
          optional int32 day (DATE);
          optional int64 ts (TIMESTAMP(MICROS,true));
          optional int64 ts_ntz (TIMESTAMP(MICROS,false));
          optional int32 dec5 (DECIMAL(5,2));
          optional int64 dec18 (DECIMAL(18,4));
          optional fixed_len_byte_array(16) dec38 (DECIMAL(38,10));
          optional group arr (LIST) {
            repeated group list {
              optional binary element (STRING);
            }
          }
          optional group ints (LIST) {
            repeated group list {
              required int32 element;
            }
          }
          optional group m (MAP) {
            repeated group key_value {
              required binary key (STRING);
              optional int64 value;
            }
          }
          optional group st {
            optional int32 x;
            required binary y (STRING);
          }
        }
        """);
    assertThat(ParquetSchemas.toParquet(schema)).isEqualTo(expected);
  }

  @Test
  void decimalByteLengthMatchesSparksMinBytesForPrecision() {
    // Spark's Decimal.minBytesForPrecision: 19 → 9, 28 → 12, 38 → 16.
    assertThat(ParquetSchemas.decimalByteLength(19)).isEqualTo(9);
    assertThat(ParquetSchemas.decimalByteLength(28)).isEqualTo(12);
    assertThat(ParquetSchemas.decimalByteLength(38)).isEqualTo(16);
    assertThat(ParquetSchemas.decimalByteLength(9)).isEqualTo(4);
  }

  @Test
  void rejectsEmptyStruct() {
    StructType schema = StructType.of(new StructField("empty", StructType.of(), true));
    assertThatThrownBy(() -> ParquetSchemas.toParquet(schema))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
  }
}
