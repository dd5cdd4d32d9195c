package io.mergesink.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge-core suite runs through at its quick size: a merge-core change that breaks a workload
 * (the upsert-vs-append workload once cast the append writer to the merging writer and stopped the
 * whole suite) fails the build instead of the documented command.
 */
class MergeCoreBenchmarkTest {

  @Test
  void quickSuiteReportsEveryWorkload(@TempDir Path directory) throws IOException {
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(report, true, StandardCharsets.UTF_8));
    try {
      MergeCoreBenchmark.main(new String[] {MergeCoreBenchmark.SUITE, "--quick", "--dir=" + directory});
    } finally {
      System.setOut(stdout);
    }
    String table = report.toString(StandardCharsets.UTF_8);
    for (String row : new String[] {"upsert (DV) / append throughput", "history / blind upsert"}) {
      assertTrue(table.contains(row), "no '" + row + "' row in the report:\n" + table);
    }
  }
}
