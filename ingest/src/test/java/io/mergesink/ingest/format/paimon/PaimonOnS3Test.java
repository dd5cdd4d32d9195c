package io.mergesink.ingest.format.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.testing.TestS3;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.PaimonOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.testing.ChangeRecords;
import io.mergesink.ingest.testing.KeyedChangeModel;
import io.mergesink.ingest.testing.PaimonTables;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.FileStatus;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.SeekableInputStream;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * Paimon tables on S3 (the tests' S3Proxy) through the sink's storage ({@link StorageFileIO}),
 * read back with Paimon's own reader through Paimon's Hadoop file IO and S3A: the snapshot and
 * schema commits are the storage's put-if-absent, the positions survive a restart.
 */
class PaimonOnS3Test {
  private static final String TABLE = "customers";
  private static final KafkaPartition P0 = new KafkaPartition(ChangeRecords.TOPIC, 0);

  @Test
  void upsertsAndDeletesLandOnS3AndARestartedEngineResumesFromTheSnapshotPositions() throws Exception {
    String warehouse = TestS3.s3Root("paimon-engine");
    KeyedChangeModel changes = new KeyedChangeModel(TABLE);
    try (IngestEngine engine = engine(warehouse)) {
      engine.open(List.of(P0));
      changes.upserts(engine, 0, 0, 12, "v");
      changes.delete(engine, 0, 13, 3);
      engine.flush();
    }
    try (IngestEngine restarted = engine(warehouse)) {
      assertThat(restarted.open(List.of(P0))).containsExactly(Map.entry(P0, 14L));
      restarted.seeksApplied();
      restarted.accept(ChangeRecords.upsert(0, 13, TABLE, 5, "replayed")); // below the position: skipped
      changes.upserts(restarted, 0, 14, 16, "x");
      changes.delete(restarted, 0, 17, 1);
      restarted.flush();
      assertThat(restarted.committedOffsets()).containsExactly(Map.entry(P0, 18L));
    }
    FileStoreTable table = PaimonTables.load(warehouse, "default", TABLE);
    assertThat(table.options()).containsEntry("deletion-vectors.enabled", "true");
    assertThat(PaimonTables.readRows(table)).containsExactlyInAnyOrderElementsOf(changes.rows());
    assertThat(PaimonTables.positions(table)).containsExactly(Map.entry("sink:" + ChangeRecords.TOPIC + ":0", 17L));
  }

  @Test
  void aSnapshotIsPublishedOnceAndAFileWrittenWithoutOverwriteAppearsOnlyIfAbsent() throws IOException {
    String root = TestS3.s3Root("paimon-file-io");
    try (StorageFileIO io = new StorageFileIO(StorageOptions.defaults().withS3(TestS3.s3Options()))) {
      Path snapshot = new Path(root + "/t/snapshot/snapshot-1");
      assertThat(io.tryToWriteAtomic(snapshot, "first")).isTrue();
      assertThat(io.tryToWriteAtomic(snapshot, "second")).as("another writer's snapshot 1").isFalse();
      assertThat(io.readFileUtf8(snapshot)).isEqualTo("first");

      Path data = new Path(root + "/t/bucket-0/data-1.parquet");
      write(io.newOutputStream(data, false), "0123456789");
      OutputStream again = io.newOutputStream(data, false);
      again.write(1);
      assertThatThrownBy(again::close).isInstanceOf(FileAlreadyExistsException.class);
      write(io.newOutputStream(data, true), "abcdef");
      assertThat(io.getFileSize(data)).isEqualTo(6);
      try (SeekableInputStream in = io.newInputStream(data)) {
        in.seek(3);
        assertThat(in.read()).isEqualTo('d');
        assertThat(in.getPos()).isEqualTo(4);
      }
    }
  }

  @Test
  void anEmptyDirectoryExistsByItsMarkerAndARecursiveDeleteRemovesEverythingUnderIt() throws IOException {
    String root = TestS3.s3Root("paimon-directories");
    try (StorageFileIO io = new StorageFileIO(StorageOptions.defaults().withS3(TestS3.s3Options()))) {
      Path database = new Path(root + "/d.db");
      assertThat(io.exists(database)).isFalse();
      io.mkdirs(database);
      assertThat(io.exists(database)).isTrue();
      assertThat(io.isDir(database)).isTrue();
      assertThat(io.listStatus(database)).as("the marker is no file of the directory").isEmpty();

      write(io.newOutputStream(new Path(root + "/d.db/t/schema/schema-0"), false), "{}");
      FileStatus[] tables = io.listDirectories(database);
      assertThat(Arrays.stream(tables).map(status -> status.getPath().toString())).containsExactly(root + "/d.db/t");
      assertThat(io.getFileStatus(new Path(root + "/d.db/t/schema/schema-0")).getLen()).isEqualTo(2);
      assertThat(Arrays.stream(io.listFiles(database, true)).map(status -> status.getPath().toString()))
          .containsExactly(root + "/d.db/t/schema/schema-0");

      assertThat(io.delete(database, true)).isTrue();
      assertThat(io.exists(database)).isFalse();
      assertThatThrownBy(() -> io.rename(database, new Path(root + "/e.db"))).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  private static void write(OutputStream out, String content) throws IOException {
    try (out) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static IngestEngine engine(String warehouse) {
    IngestOptions options = IngestOptions.builder(warehouse, "sink").storage(StorageOptions.defaults().withS3(TestS3.s3Options()))
        .tableFormat(TableFormatName.PAIMON).tableNameFormat("${source.table}").commitInterval(Duration.ZERO)
        .paimon(new PaimonOptions(Map.of(), "default", 1)).build();
    return new IngestEngine(options, IngestMetrics.NONE);
  }
}
