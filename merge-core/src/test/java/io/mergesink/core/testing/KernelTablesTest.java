package io.mergesink.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelTables} against the Spark fixtures' PROVENANCE.md (their rows: {@link KernelReadsEveryFixtureTest}):
 * versions, txns, schema and the in-memory representation of every type.
 */
class KernelTablesTest {
  @Test
  void dvTableVersionAndTxnVersionsMatchProvenance() {
    String table = FixtureTables.path("dv-table").toString();

    assertThat(KernelTables.latestVersion(table)).isEqualTo(6);
    assertThat(KernelTables.txnVersion(table, "fixture-app:orders:0")).contains(45L);
    assertThat(KernelTables.txnVersion(table, "fixture-app:orders:1")).contains(7L);
    assertThat(KernelTables.txnVersion(table, "fixture-app:orders:2")).isEmpty();
  }

  @Test
  void latestVersionsOfOtherFixtures() {
    assertThat(KernelTables.latestVersion(FixtureTables.path("cow-table").toString())).isEqualTo(3);
    assertThat(KernelTables.latestVersion(FixtureTables.path("types-table").toString())).isEqualTo(2);
  }

  @Test
  void typesTableSchemaConvertsEveryType() {
    StructType expected = FixtureTables.TYPES_TABLE_SCHEMA;

    assertThat(KernelTables.schema(FixtureTables.path("types-table").toString())).isEqualTo(expected);
  }

  @Test
  void typesTableValuesAreInMergeSinkRepresentation() {
    String table = FixtureTables.path("types-table").toString();
    List<List<String>> expectedCsv = FixtureTables.expectedRows("types-table");

    Map<Integer, Row> byId = new TreeMap<>();
    for (Row row : KernelTables.readRows(table)) {
      byId.put((Integer) row.get(0), row);
    }

    assertThat(byId.keySet()).containsExactly(1, 2).hasSize(expectedCsv.size());
    long micros = micros(LocalDateTime.of(2026, 3, 1, 12, 34, 56, 789_012_000));
    Map<String, Long> map = new LinkedHashMap<>();
    map.put("k1", 1L);
    map.put("k2", null);
    Row one = byId.get(1);
    assertThat(one.get(1)).isEqualTo((byte) 1);
    assertThat(one.get(2)).isEqualTo((short) 2);
    assertThat(one.get(4)).isEqualTo(1.5f);
    assertThat(one.get(6)).isEqualTo(new BigDecimal("12345678901234567890.0123456789"));
    assertThat(one.get(7)).isEqualTo("héllo, \"world\"").isEqualTo(expectedCsv.get(0).get(7));
    assertThat((byte[]) one.get(8)).containsExactly(0x00, 0xFF, 0x10);
    assertThat(one.get(10)).isEqualTo((int) LocalDate.of(2026, 2, 28).toEpochDay());
    assertThat(one.get(11)).isEqualTo(micros);
    assertThat(one.get(12)).isEqualTo(micros);
    assertThat(one).isEqualTo(Row.of(1, (byte) 1, (short) 2, 3L, 1.5f, 2.25d,
        new BigDecimal("12345678901234567890.0123456789"), "héllo, \"world\"", new byte[] {0x00, (byte) 0xFF, 0x10},
        true, (int) LocalDate.of(2026, 2, 28).toEpochDay(), micros, micros, Arrays.asList("a", null, "c"),
        Row.of(7, "why"), map));

    Object[] allNull = new Object[16];
    allNull[0] = 2;
    assertThat(byId.get(2)).isEqualTo(Row.of(allNull));
  }

  private static long micros(LocalDateTime utc) {
    return TimeUnit.SECONDS.toMicros(utc.toEpochSecond(ZoneOffset.UTC)) + utc.getNano() / 1000;
  }
}
