package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.data.Row;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFileStatsTest {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private final Storage storage = HadoopStorage.withDefaults();

  @TempDir
  Path dir;

  @Test
  void allTypesStatsFollowDeltaConventions() throws IOException {
    JsonNode stats = statsOf(AllTypes.SCHEMA, AllTypes.rows());

    assertThat(stats.get("numRecords").asLong()).isEqualTo(5);
    assertThat(stats.fieldNames()).toIterable().containsExactly("numRecords", "minValues", "maxValues", "nullCount");

    JsonNode min = stats.get("minValues");
    JsonNode max = stats.get("maxValues");
    assertThat(min.get("id").asLong()).isEqualTo(Long.MIN_VALUE);
    assertThat(max.get("id").asLong()).isEqualTo(Long.MAX_VALUE);
    assertThat(min.get("b").asInt()).isEqualTo(Byte.MIN_VALUE);
    assertThat(max.get("s").asInt()).isEqualTo(Short.MAX_VALUE);
    assertThat(min.get("i").asInt()).isEqualTo(Integer.MIN_VALUE);
    assertThat(max.get("f").floatValue()).isEqualTo(Float.MAX_VALUE);
    assertThat(min.get("d").asDouble()).isEqualTo(-Double.MAX_VALUE);
    assertThat(min.get("day").asText()).isEqualTo("0001-01-01");
    assertThat(max.get("day").asText()).isEqualTo("9999-12-31");
    // Timestamps in milliseconds: min floored, max rounded up.
    assertThat(min.get("ts").asText()).isEqualTo("1969-12-31T23:59:59.999Z");
    assertThat(min.get("ts_ntz").asText()).isEqualTo("0001-01-01T00:00:00.000");
    // 9999-12-31T23:59:59.999999 rounds up into year 10000, which Delta cannot write: no bound.
    assertThat(max.has("ts")).isFalse();
    assertThat(max.has("ts_ntz")).isFalse();
    // Decimals as exact JSON numbers at the column's scale.
    assertThat(min.get("dec5").decimalValue()).isEqualByComparingTo("-999.99");
    assertThat(max.get("dec38").decimalValue()).isEqualByComparingTo("9999999999999999999999999999.9999999999");
    assertThat(min.get("dec18").toString()).isEqualTo("-99999999999999.9999");
    // The 100-character string is the max: too long to write whole, so no max.
    assertThat(min.get("str").asText()).isEqualTo("");
    assertThat(max.has("str")).isFalse();
    // No bounds for boolean, binary, arrays, maps.
    for (String column : List.of("flag", "bin", "tags", "points", "attrs")) {
      assertThat(min.has(column)).as(column).isFalse();
      assertThat(max.has(column)).as(column).isFalse();
    }
    // Nested struct bounds.
    assertThat(min.get("nested").get("p").get("x").asInt()).isEqualTo(Integer.MIN_VALUE);
    assertThat(max.get("nested").get("p").get("label").asText()).isEqualTo("why");
    assertThat(min.get("nested").get("n").asLong()).isEqualTo(Long.MIN_VALUE);

    JsonNode nulls = stats.get("nullCount");
    assertThat(nulls.get("id").asLong()).isZero();
    assertThat(nulls.get("flag").asLong()).isEqualTo(1);
    assertThat(nulls.get("bin").asLong()).isEqualTo(1);
    // Arrays and maps: nulls of the column itself, as Spark writes them.
    assertThat(nulls.get("tags").asLong()).isEqualTo(1);
    assertThat(nulls.get("attrs").asLong()).isEqualTo(1);
    // A null struct counts as null in each nested column: rows 2 and 5 null, row 3 has p = null.
    assertThat(nulls.get("nested").get("n").asLong()).isEqualTo(2);
    assertThat(nulls.get("nested").get("p").get("x").asLong()).isEqualTo(3);
    assertThat(nulls.get("nested").get("p").get("label").asLong()).isEqualTo(3);
  }

  @Test
  void timestampMaxRoundsUpOnlyWhenTruncated() throws IOException {
    StructType schema = StructType.of(
        new StructField("ts", PrimitiveType.TIMESTAMP, true),
        new StructField("exact", PrimitiveType.TIMESTAMP_NTZ, true));
    JsonNode stats = statsOf(schema, List.of(
        Row.of(AllTypes.micros("2026-03-01T12:34:56.789012Z"), AllTypes.microsNtz("2026-01-01T00:00:00.001")),
        Row.of(AllTypes.micros("2026-03-01T12:34:56.000001Z"), AllTypes.microsNtz("2026-01-01T00:00:00"))));

    assertThat(stats.get("minValues").get("ts").asText()).isEqualTo("2026-03-01T12:34:56.000Z");
    assertThat(stats.get("maxValues").get("ts").asText()).isEqualTo("2026-03-01T12:34:56.790Z");
    assertThat(stats.get("minValues").get("exact").asText()).isEqualTo("2026-01-01T00:00:00.000");
    assertThat(stats.get("maxValues").get("exact").asText()).isEqualTo("2026-01-01T00:00:00.001");
  }

  @Test
  void floatBoundsAreDroppedOnNaNAndInfinity() throws IOException {
    StructType schema = StructType.of(
        new StructField("nan", PrimitiveType.DOUBLE, true),
        new StructField("inf", PrimitiveType.FLOAT, true),
        new StructField("ok", PrimitiveType.DOUBLE, true));
    JsonNode stats = statsOf(schema, List.of(
        Row.of(1.0, Float.NEGATIVE_INFINITY, 1.0),
        Row.of(Double.NaN, 2.0f, -0.5),
        Row.of(3.0, null, null)));

    assertThat(stats.get("minValues").has("nan")).isFalse();
    assertThat(stats.get("maxValues").has("nan")).isFalse();
    assertThat(stats.get("minValues").has("inf")).isFalse();
    assertThat(stats.get("maxValues").get("inf").floatValue()).isEqualTo(2.0f);
    assertThat(stats.get("minValues").get("ok").asDouble()).isEqualTo(-0.5);
    assertThat(stats.get("maxValues").get("ok").asDouble()).isEqualTo(1.0);
    assertThat(stats.get("nullCount").get("inf").asLong()).isEqualTo(1);
  }

  @Test
  void stringBoundsCompareByCodePointAndNeverLie() throws IOException {
    StructType schema = StructType.of(
        new StructField("s", PrimitiveType.STRING, true),
        new StructField("long", PrimitiveType.STRING, true));
    String longMin = "a".repeat(40);
    // U+FFFD sorts below U+1F600 by code point (and UTF-8 bytes), above it by UTF-16 units.
    JsonNode stats = statsOf(schema, List.of(
        Row.of("\uFFFD", longMin),
        Row.of("😀", "b")));

    assertThat(stats.get("minValues").get("s").asText()).isEqualTo("\uFFFD");
    assertThat(stats.get("maxValues").get("s").asText()).isEqualTo("😀");
    // A long min is cut to a 32-character prefix (still a lower bound); a short max is whole.
    assertThat(stats.get("minValues").get("long").asText()).isEqualTo("a".repeat(32));
    assertThat(stats.get("maxValues").get("long").asText()).isEqualTo("b");
  }

  @Test
  void allNullStructHasNoBoundsButCountsNulls() throws IOException {
    StructType schema = StructType.of(
        new StructField("id", PrimitiveType.INTEGER, false),
        new StructField("st", StructType.of(new StructField("x", new DecimalType(12, 2), true)), true));
    JsonNode stats = statsOf(schema, List.of(Row.of(1, null), Row.of(2, Row.of((Object) null))));

    assertThat(stats.get("minValues").has("st")).isFalse();
    assertThat(stats.get("nullCount").get("st").get("x").asLong()).isEqualTo(2);
  }

  @Test
  void emptyFileHasZeroRecordsAndEmptyBounds() throws IOException {
    StructType schema = StructType.of(new StructField("id", PrimitiveType.LONG, false));
    assertThat(statsJson(schema, List.of()))
        .isEqualTo("{\"numRecords\":0,\"minValues\":{},\"maxValues\":{},\"nullCount\":{\"id\":0}}");
  }

  @Test
  void statsJsonIsExactForASimpleFile() throws IOException {
    StructType schema = StructType.of(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("name", PrimitiveType.STRING, true),
        new StructField("amount", new DecimalType(12, 2), true),
        new StructField("active", PrimitiveType.BOOLEAN, true),
        new StructField("updated_at", PrimitiveType.TIMESTAMP, true));
    String json = statsJson(schema, List.of(
        Row.of(0L, "name-0", new BigDecimal("0.00"), true, AllTypes.micros("2026-01-01T00:00:00Z")),
        Row.of(249L, "name-99", new BigDecimal("311.25"), false, AllTypes.micros("2026-01-01T00:04:09Z"))));
    // The same text Spark wrote for the first file of the dv-table fixture, minus tightBounds.
    assertThat(json).isEqualTo("{\"numRecords\":2,"
        + "\"minValues\":{\"id\":0,\"name\":\"name-0\",\"amount\":0.00,\"updated_at\":\"2026-01-01T00:00:00.000Z\"},"
        + "\"maxValues\":{\"id\":249,\"name\":\"name-99\",\"amount\":311.25,\"updated_at\":\"2026-01-01T00:04:09.000Z\"},"
        + "\"nullCount\":{\"id\":0,\"name\":0,\"amount\":0,\"active\":0,\"updated_at\":0}}");
  }

  private JsonNode statsOf(StructType schema, List<Row> rows) throws IOException {
    return JSON.readTree(statsJson(schema, rows));
  }

  private String statsJson(StructType schema, List<Row> rows) throws IOException {
    String path = dir.resolve("stats-" + System.nanoTime() + ".parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(storage, path, schema, ParquetWriteOptions.defaults())) {
      for (Row row : rows) {
        writer.write(row);
      }
      return writer.finish().statsJson();
    }
  }
}
