package io.mergesink.core.generatedcolumns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.InvalidChangeSetException;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated columns (PROTOCOL.md, "Generated Columns"): the expressions MergeSink computes, written
 * as Spark writes them or as users do, their values as Spark computes them (UTC, the floor of
 * negative timestamps), computed partition columns of a table Delta Kernel reads, and every other
 * expression refused by name.
 */
class GeneratedColumnsTest {
  private static final StructType SOURCE = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("ts", PrimitiveType.TIMESTAMP, true),
      new StructField("ntz", PrimitiveType.TIMESTAMP_NTZ, true),
      new StructField("d", PrimitiveType.DATE, true));

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "CAST(ts AS DATE)|DATE|ts", "cast(`ts` as date)|DATE|ts", "to_date(ntz)|DATE|ntz", "YEAR(d)|YEAR|d",
      " month ( ts ) |MONTH|ts", "DAYOFMONTH(ts)|DAY|ts", "day(`weird ``col`` name`)|DAY|weird `col` name", "HOUR(ntz)|HOUR|ntz"})
  void parsesTheSupportedExpressionsAsSparkStoresThem(String sql, GenerationExpression.Function function, String column) {
    assertThat(GenerationExpression.parse(sql)).contains(new GenerationExpression(function, column));
  }

  @ParameterizedTest
  @ValueSource(strings = {"lower(name)", "CAST(ts AS STRING)", "YEAR(ts) + 1", "date_format(ts, 'yyyy-MM')", "ts", "WEEK(ts)"})
  void otherExpressionsAreNotSupported(String sql) {
    assertThat(GenerationExpression.parse(sql)).isEmpty();
  }

  @Test
  void valuesAreSparksInUtcWithTheFloorOfNegativeTimestamps() {
    StructType schema = withGenerated();
    GeneratedColumns generated = GeneratedColumns.of(schema);
    long lastMicroOf2026 = micros("2026-12-31T23:59:59.999999Z");
    long beforeEpoch = micros("1969-12-31T22:30:00Z");
    int leapDay = (int) LocalDate.of(2024, 2, 29).toEpochDay();

    Row filled = generated.fill(Row.of(1L, lastMicroOf2026, beforeEpoch, leapDay, null, null, null, null, null));
    Row nulls = generated.fill(Row.of(2L, null, null, null, null, null, null, null, null));

    assertThat(filled.toArray()).containsExactly(1L, lastMicroOf2026, beforeEpoch, leapDay,
        (int) LocalDate.of(2026, 12, 31).toEpochDay(), 2024, 12, 31, 22);
    assertThat(nulls.toArray()).containsExactly(2L, null, null, null, null, null, null, null, null);
  }

  @Test
  void computedPartitionColumnsOfATableKernelReads() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(withGenerated(), List.of("id"), List.of("ts_day", "d_year"), MergeStrategy.DELETION_VECTORS,
        Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    long ts = micros("2026-03-01T12:00:00Z");
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, ts, ts, 0, null, null, null, null, null)).build());
    long moved = micros("2026-03-02T01:00:00Z");
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, moved, moved, 365, null, null, null, null, null)).build());

    assertThat(KernelTables.readRows(table.root())).containsExactly(
        Row.of(1L, moved, moved, 365, (int) LocalDate.of(2026, 3, 2).toEpochDay(), 1971, 3, 2, 1));
    assertThat(table.snapshot().protocol().writerFeatures()).contains("generatedColumns");
    assertThat(table.snapshot().files().values()).singleElement()
        .satisfies(file -> assertThat(file.partitionValues()).containsEntry("ts_day", "2026-03-02").containsEntry("d_year", "1971"));
  }

  @Test
  void aRowHoldingAnotherValueForAGeneratedColumnIsRefused() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(withGenerated(), List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    long ts = micros("2026-03-01T12:00:00Z");

    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().upsert(Row.of(1L, ts, null, null, null, 2025, null, null, null)).build()))
        .isInstanceOf(InvalidChangeSetException.class)
        .hasMessageContaining("generated column 'd_year' = YEAR(d) is null for this row, but the row holds 2025");
  }

  @Test
  void anExpressionMergeSinkDoesNotComputeIsRefusedByName() throws Exception {
    StructType schema = SOURCE.add(new StructField("label", PrimitiveType.STRING, true,
        Map.of(GeneratedColumns.EXPRESSION_KEY, "concat('x', id)")));

    assertThatThrownBy(() -> new TableSpec(schema, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("generated column 'label' is GENERATED ALWAYS AS (concat('x', id)), an expression MergeSink does not compute; "
            + "it computes " + GenerationExpression.SUPPORTED);
    assertThatThrownBy(() -> GeneratedColumns.of(SOURCE.add(new StructField("y", PrimitiveType.LONG, true,
        Map.of(GeneratedColumns.EXPRESSION_KEY, "YEAR(ts)")))))
        .hasMessage("generated column 'y' (YEAR(ts)) is long but the expression gives integer");
  }

  @Test
  void aTableWithAnotherExpressionIsNotWritable() throws Exception {
    Path root = dir.resolve("foreign");
    java.nio.file.Files.createDirectories(root.resolve("_delta_log"));
    String schema = "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
        + "{\"name\":\"n\",\"type\":\"long\",\"nullable\":true,\"metadata\":{\"delta.generationExpression\":\"id * 2\"}}]}";
    java.nio.file.Files.writeString(root.resolve("_delta_log/00000000000000000000.json"),
        "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"generatedColumns\"]}}\n"
            + "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":"
            + com.fasterxml.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(schema)
            + ",\"partitionColumns\":[],\"configuration\":{},\"createdTime\":1}}\n");
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());

    assertThatThrownBy(() -> table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE), List.of("id")))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessage("table " + root + " cannot be written by MergeSink: generated column 'n' is GENERATED ALWAYS AS (id * 2), an "
            + "expression MergeSink does not compute; it computes " + GenerationExpression.SUPPORTED + "; it was left untouched");
  }

  /** {@link #SOURCE} with a generated column of each function. */
  private static StructType withGenerated() {
    StructType schema = SOURCE;
    for (String[] column : new String[][] {{"ts_day", "CAST(ts AS DATE)"}, {"d_year", "YEAR(d)"}, {"ntz_month", "MONTH(ntz)"},
        {"ntz_day", "DAY(ntz)"}, {"ntz_hour", "HOUR(ntz)"}}) {
      schema = schema.add(GeneratedColumns.column(column[0], GenerationExpression.parse(column[1]).orElseThrow(), SOURCE));
    }
    return schema;
  }

  private static long micros(String instant) {
    Instant parsed = Instant.parse(instant);
    return parsed.getEpochSecond() * 1_000_000 + parsed.getNano() / 1_000;
  }
}
