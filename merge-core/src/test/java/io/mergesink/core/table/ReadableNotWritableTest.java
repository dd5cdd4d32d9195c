package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tables MergeSink reads but does not write (the Spark fixture with a CHECK constraint) open for reading, and every way of writing to them (a writer, a schema change) is
 * refused naming the feature, before a byte is written.
 */
class ReadableNotWritableTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "constraints-table | writer features [checkConstraints]"})
  void readsButRefusesWrites(String fixture, String refusal) throws IOException {
    Path root = FixtureTables.copy(fixture, dir.resolve(fixture));
    List<String> log = list(root.resolve("_delta_log"));
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());

    assertThat(table.snapshot().files()).isNotEmpty();
    assertThatThrownBy(() -> table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), List.of("id")))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessage("table " + root + " uses " + refusal + ", which MergeSink does not support; it was left untouched");
    assertThatThrownBy(() -> table.addColumns(List.of(new StructField("added", PrimitiveType.STRING, true))))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessageContaining(refusal);
    assertThat(list(root.resolve("_delta_log"))).isEqualTo(log);
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
