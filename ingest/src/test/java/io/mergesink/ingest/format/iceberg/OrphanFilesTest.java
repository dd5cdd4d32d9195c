package io.mergesink.ingest.format.iceberg;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.IcebergTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan files of an Iceberg table: files under its location that no metadata references and that
 * are older than the minimum age are found and removed by a maintenance run; every file of the table
 * (data files, deletion vectors, manifests, manifest lists, metadata files) and young unreferenced
 * files (of commits in flight) stay, and the table reads the same.
 */
class OrphanFilesTest {
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @TempDir Path dir;

  @Test
  void aMaintenanceRunRemovesOldUnreferencedFilesAndNothingElse() throws Exception {
    try (IngestEngine engine = new IngestEngine(IngestOptions.builder(dir.toString(), "sink").tableFormat(TableFormatName.ICEBERG)
        .tableNameFormat("${source.table}").commitInterval(Duration.ZERO).compaction(false, 0.25, 10).build(), IngestMetrics.NONE)) {
      engine.open(List.of(P0));
      for (long id = 0; id < 6; id++) {
        engine.accept(ChangeRecords.upsert(0, id, "customers", id, "v" + id));
      }
      engine.flush();
      engine.accept(ChangeRecords.upsert(0, 6, "customers", 2, "w2"));
      engine.flush();
    }
    Table table = IcebergTables.load(dir.toString(), "default", "customers");
    List<Row> before = IcebergTables.readRows(table);
    assertThat(before).contains(row(2, "w2"));
    Path location = Path.of(table.location());
    Instant old = Instant.now().minus(OrphanFiles.MIN_AGE).minus(Duration.ofHours(1));
    List<Path> tableFiles = files(location);
    tableFiles.forEach(file -> setModified(file, old)); // the table's own files are as old as the orphans
    Path oldOrphan = Files.writeString(location.resolve("data/00000-9-crashed-00001.parquet"), "left by a crash");
    Path oldMetadataOrphan = Files.writeString(location.resolve("metadata/crashed-m0.avro"), "left by a crash");
    setModified(oldOrphan, old);
    setModified(oldMetadataOrphan, old);
    Path youngOrphan = Files.writeString(location.resolve("data/00000-9-in-flight-00001.parquet"), "a commit in flight");

    assertThat(OrphanFiles.find(table, System.currentTimeMillis() - OrphanFiles.MIN_AGE.toMillis()))
        .map(orphan -> Path.of(URI.create(orphan).getPath()))
        .containsExactlyInAnyOrder(oldOrphan, oldMetadataOrphan);

    IcebergCompaction.plan(() -> IcebergTables.load(table.location()), table, List.of(), 0.25, 10, Long.MAX_VALUE, true)
        .orElseThrow().compact();

    assertThat(oldOrphan).doesNotExist();
    assertThat(oldMetadataOrphan).doesNotExist();
    assertThat(youngOrphan).exists();
    assertThat(tableFiles).allSatisfy(file -> assertThat(file).exists());
    table.refresh();
    assertThat(IcebergTables.readRows(table)).containsExactlyInAnyOrderElementsOf(before);
  }

  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return new ArrayList<>(walk.filter(Files::isRegularFile).toList());
    }
  }

  private static void setModified(Path file, Instant at) {
    try {
      Files.setLastModifiedTime(file, FileTime.from(at));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
