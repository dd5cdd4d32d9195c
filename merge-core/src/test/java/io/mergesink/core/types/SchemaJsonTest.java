package io.mergesink.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaJsonTest {
  /** The schemaString Spark 4.0 wrote for the types-table fixture. */
  private static final String SPARK_TYPES_SCHEMA = "{\"type\":\"struct\",\"fields\":["
      + "{\"name\":\"id\",\"type\":\"integer\",\"nullable\":false,\"metadata\":{}},"
      + "{\"name\":\"b\",\"type\":\"byte\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"s\",\"type\":\"short\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"l\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"f\",\"type\":\"float\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"d\",\"type\":\"double\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"dec\",\"type\":\"decimal(38,10)\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"str\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"bin\",\"type\":\"binary\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"flag\",\"type\":\"boolean\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"day\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"ts\",\"type\":\"timestamp\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"ts_ntz\",\"type\":\"timestamp_ntz\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"elementType\":\"string\",\"containsNull\":true},\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"st\",\"type\":{\"type\":\"struct\",\"fields\":["
      + "{\"name\":\"x\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"y\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]},\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"keyType\":\"string\",\"valueType\":\"long\",\"valueContainsNull\":true},\"nullable\":true,\"metadata\":{}}]}";

  @Test
  void parsesSparkSchemaAndWritesItBackByteForByte() {
    StructType schema = SchemaJson.fromJson(SPARK_TYPES_SCHEMA);

    assertThat(schema.field("id").orElseThrow()).isEqualTo(new StructField("id", PrimitiveType.INTEGER, false));
    assertThat(schema.field("dec").orElseThrow().type()).isEqualTo(new DecimalType(38, 10));
    assertThat(schema.field("ts_ntz").orElseThrow().type()).isEqualTo(PrimitiveType.TIMESTAMP_NTZ);
    assertThat(schema.field("arr").orElseThrow().type()).isEqualTo(new ArrayType(PrimitiveType.STRING, true));
    assertThat(schema.field("st").orElseThrow().type()).isEqualTo(StructType.of(
        new StructField("x", PrimitiveType.INTEGER, true), new StructField("y", PrimitiveType.STRING, true)));
    assertThat(schema.field("m").orElseThrow().type())
        .isEqualTo(new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true));
    assertThat(SchemaJson.toJson(schema)).isEqualTo(SPARK_TYPES_SCHEMA);
  }

  @Test
  void nestedTypesAndFieldMetadataRoundTrip() {
    StructType schema = StructType.of(
        new StructField("k", PrimitiveType.LONG, false, Map.of("comment", "primary key", "delta.columnMapping.id", 1)),
        new StructField("nested", new ArrayType(new MapType(PrimitiveType.STRING,
            StructType.of(new StructField("v", new DecimalType(5, 0), true)), false), false), true),
        new StructField("bin", PrimitiveType.BINARY, true, Map.of("tags", List.of("a", "b"))));

    assertThat(SchemaJson.fromJson(SchemaJson.toJson(schema))).isEqualTo(schema);
  }

  @Test
  void bareDecimalIsDecimalTenZero() {
    StructType schema = SchemaJson.fromJson(
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"d\",\"type\":\"decimal\",\"nullable\":true,\"metadata\":{}}]}");

    assertThat(schema.field(0).type()).isEqualTo(new DecimalType(10, 0));
  }

  @Test
  void unknownTypeIsNamed() {
    assertThatThrownBy(() -> SchemaJson.fromJson(
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"v\",\"type\":\"variant\",\"nullable\":true,\"metadata\":{}}]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown Delta type 'variant'")
        .hasMessageContaining("for v");
    assertThatThrownBy(() -> SchemaJson.fromJson("{\"type\":\"udt\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'udt'");
    assertThatThrownBy(() -> SchemaJson.fromJson("\"long\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected a struct");
  }
}
