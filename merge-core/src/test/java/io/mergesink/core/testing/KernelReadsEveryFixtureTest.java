package io.mergesink.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.types.StructType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The independent reader is right about every Spark fixture: Delta Kernel's live rows, rendered as
 * Spark renders them, are the fixture's {@code EXPECTED_ROWS.csv}, and its schema names the CSV's
 * columns. Tests that compare our tables with Kernel's view rely on this.
 */
class KernelReadsEveryFixtureTest {
  static List<String> fixtures() {
    return FixtureTables.names();
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void kernelReadsTheExpectedRows(String fixture) {
    String table = FixtureTables.path(fixture).toString();
    StructType schema = KernelTables.schema(table);

    assertThat(schema.fieldNames()).isEqualTo(FixtureTables.expectedColumns(fixture));
    assertThat(FixtureTables.sorted(SparkStrings.render(schema, KernelTables.readRows(table))))
        .isEqualTo(FixtureTables.sorted(FixtureTables.expectedRows(fixture)));
  }

  @Test
  void theTestResourcesHoldEverySharedFixture() {
    assertThat(fixtures()).containsExactly("cdf-table", "clustered-table", "column-mapping-id-table", "column-mapping-name-table",
        "constraints-table", "cow-table", "dv-table", "partitioned-table", "row-tracking-table", "type-widening-table", "types-table",
        "v2-checkpoint-table");
  }
}
