package io.mergesink.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.SparkStrings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * V2 checkpoints (PROTOCOL.md, "V2 Spec") as the only way to version 3 of {@code v2-checkpoint-table}:
 * its commits before 3 are deleted, so a reader that skipped the checkpoint, or its sidecar, could
 * not rebuild the table. Spark's UUID-named JSON checkpoint, and the same actions as a UUID-named
 * and as a classic-named Parquet V2 checkpoint, each read by our loader (with and without
 * {@code _last_checkpoint}, by lookups and by listing) and by Delta Kernel into the expected rows.
 */
class V2CheckpointReadTest {
  private static final String FIXTURE = "v2-checkpoint-table";
  private static final String SPARK_CHECKPOINT = "00000000000000000003.checkpoint.edb927f1-7b47-4bc8-96d9-2f9a27c85c84.json";

  @TempDir Path dir;

  @Test
  void sparksJsonCheckpointWithSidecar() throws IOException {
    Path table = historyFromCheckpointOnly();

    assertReadsFromVersion3Checkpoint(table);
    Files.delete(table.resolve("_delta_log/_last_checkpoint"));
    assertReadsFromVersion3Checkpoint(table);
  }

  @Test
  void parquetV2CheckpointsUuidNamedAndClassicNamed() throws IOException {
    for (String name : List.of("00000000000000000003.checkpoint." + UUID.randomUUID() + ".parquet",
        "00000000000000000003.checkpoint.parquet")) {
      Path table = historyFromCheckpointOnly();
      Path log = table.resolve("_delta_log");
      List<Action> actions = LogCodec.parse(Files.readAllBytes(log.resolve(SPARK_CHECKPOINT)));
      assertThat(actions).hasAtLeastOneElementOfType(Sidecar.class).hasAtLeastOneElementOfType(CheckpointMetadata.class);
      Files.write(log.resolve(name), CheckpointWriter.toParquet(actions, CheckpointSchema.V2_SCHEMA));
      Files.delete(log.resolve(SPARK_CHECKPOINT));
      Files.delete(log.resolve("_last_checkpoint"));

      assertReadsFromVersion3Checkpoint(table);
    }
  }

  @Test
  void aMissingSidecarFailsNamingIt() throws IOException {
    Path table = historyFromCheckpointOnly();
    try (Stream<Path> sidecars = Files.list(table.resolve("_delta_log/_sidecars"))) {
      for (Path sidecar : sidecars.toList()) {
        Files.delete(sidecar);
      }
    }

    assertThatThrownBy(() -> new SnapshotLoader(new LocalStorage()).latest(table.toString()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("_delta_log/_sidecars/00000000000000000003.checkpoint.0000000001.0000000001.");
  }

  @Test
  void aCheckpointNamingAnotherVersionIsRefused() throws IOException {
    Path table = historyFromCheckpointOnly();
    Path checkpoint = table.resolve("_delta_log").resolve(SPARK_CHECKPOINT);
    Files.writeString(checkpoint, Files.readString(checkpoint).replace("{\"checkpointMetadata\":{\"version\":3}}",
        "{\"checkpointMetadata\":{\"version\":2}}"));

    assertThatThrownBy(() -> new SnapshotLoader(new LocalStorage()).latest(table.toString()))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("says it is of version 2 (checkpointMetadata) but its name says 3");
  }

  /**
   * A copy of the fixture without commits 0 to 2 (and their checksums): version 3 can only be built
   * from its checkpoint (whose commit stays, as metadata cleanup keeps it; Kernel needs it).
   */
  private Path historyFromCheckpointOnly() throws IOException {
    Path table = FixtureTables.copy(FIXTURE, Files.createTempDirectory(dir, "v2"));
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.matches("0000000000000000000[0-2]\\.(json|crc)") || name.matches("\\.0000000000000000000[0-2]\\..*\\.crc")) {
          Files.delete(file);
        }
      }
    }
    return table;
  }

  private static void assertReadsFromVersion3Checkpoint(Path table) throws IOException {
    List<String> expected = FixtureTables.sorted(FixtureTables.expectedRows(FIXTURE));
    for (Storage storage : List.of(new LocalStorage(), HadoopStorage.withDefaults())) {
      Snapshot snapshot = new SnapshotLoader(storage).latest(table.toString());
      assertThat(snapshot.version()).isEqualTo(4);
      assertThat(snapshot.lastCheckpointVersion()).hasValue(3);
      assertThat(snapshot.files()).hasSize(5);
      List<Row> rows = new ArrayList<>();
      try (TableScan scan = TableScan.of(storage, snapshot, List.of())) {
        scan.forEachRemaining(rows::add);
      }
      assertThat(FixtureTables.sorted(SparkStrings.render(snapshot.schema(), rows))).isEqualTo(expected);
    }
    assertThat(FixtureTables.sorted(SparkStrings.render(KernelTables.schema(table.toString()), KernelTables.readRows(table.toString()))))
        .isEqualTo(expected);
  }
}
