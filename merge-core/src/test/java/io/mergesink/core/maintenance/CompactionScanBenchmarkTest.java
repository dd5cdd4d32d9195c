package io.mergesink.core.maintenance;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link CompactionScanBenchmark} on demand ({@code -Dbenchmark=true}); it prints a figure and
 * asserts nothing about time.
 */
class CompactionScanBenchmarkTest {
  @TempDir Path dir;

  @Test
  @EnabledIfSystemProperty(named = "benchmark", matches = "true")
  void printScanTimeBeforeAndAfterCompaction() throws Exception {
    System.out.println(CompactionScanBenchmark.run(dir, Integer.getInteger("benchmark.commits", 500),
        Integer.getInteger("benchmark.rows", 200)));
  }
}
