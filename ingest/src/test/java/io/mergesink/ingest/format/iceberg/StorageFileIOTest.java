package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.storage.StorageOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Iceberg's file IO over the sink's storage, here on local disk; on S3 the connector's Iceberg tests
 * (IcebergCatalogsIT, the reliability matrix's S3 cells) write through it and read back with
 * Iceberg's own S3 file IO.
 */
class StorageFileIOTest {
  private static final byte[] CONTENT = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);

  @TempDir Path dir;
  private String root;

  @BeforeEach
  void root() {
    root = dir.toAbsolutePath().toString();
  }

  private static StorageFileIO io() {
    return new StorageFileIO(StorageOptions.defaults());
  }

  @Test
  void createPublishesAFileOnceAndCreateOrOverwriteReplacesIt() throws IOException {
    String path = root + "/create/metadata/v1.metadata.json";
    try (StorageFileIO io = io()) {
      write(io.newOutputFile(path).create(), CONTENT);
      assertThat(read(io.newInputFile(path))).isEqualTo(CONTENT);

      PositionOutputStream again = io.newOutputFile(path).create();
      again.write(new byte[] {1, 2, 3});
      assertThatThrownBy(again::close).isInstanceOf(AlreadyExistsException.class).hasMessageContaining(path);
      assertThat(read(io.newInputFile(path))).as("the first writer's file stays").isEqualTo(CONTENT);

      write(io.newOutputFile(path).createOrOverwrite(), new byte[] {7, 8});
      assertThat(read(io.newInputFile(path))).isEqualTo(new byte[] {7, 8});
    }
  }

  @Test
  void readsAreRangedAndSeekable() throws IOException {
    String path = root + "/ranges/data/part-0.parquet";
    try (StorageFileIO io = io()) {
      write(io.newOutputFile(path).create(), CONTENT);
      InputFile file = io.newInputFile(path);
      assertThat(file.getLength()).isEqualTo(CONTENT.length);
      try (SeekableInputStream in = file.newStream()) {
        in.seek(10);
        assertThat(in.read()).isEqualTo('a');
        assertThat(in.getPos()).isEqualTo(11);
        byte[] range = new byte[4];
        ((RangeReadable) in).readFully(2, range, 0, 4);
        assertThat(new String(range, StandardCharsets.US_ASCII)).isEqualTo("2345");
        byte[] tail = new byte[3];
        assertThat(((RangeReadable) in).readTail(tail, 0, 3)).isEqualTo(3);
        assertThat(new String(tail, StandardCharsets.US_ASCII)).isEqualTo("hij");
      }
    }
  }

  @Test
  void aMissingFileIsNotFound() {
    String path = root + "/missing/metadata/v9.metadata.json";
    try (StorageFileIO io = io()) {
      assertThat(io.newInputFile(path).exists()).isFalse();
      assertThatThrownBy(() -> io.newInputFile(path).newStream().close()).isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void aPrefixListsAndDeletesEveryFileBelowIt() throws IOException {
    String table = root + "/listed";
    try (StorageFileIO io = io()) {
      write(io.newOutputFile(table + "/data/a.parquet").create(), CONTENT);
      write(io.newOutputFile(table + "/data/p=1/b.parquet").create(), new byte[] {1});
      write(io.newOutputFile(table + "/metadata/v1.metadata.json").create(), new byte[] {2, 3});
      write(io.newOutputFile(root + "/listed-other/data/c.parquet").create(), new byte[] {4});

      List<String> listed = new ArrayList<>();
      List<Long> sizes = new ArrayList<>();
      for (FileInfo file : io.listPrefix(table)) {
        listed.add(file.location());
        sizes.add(file.size());
        assertThat(file.createdAtMillis()).isPositive();
      }
      assertThat(listed).containsExactlyInAnyOrder(table + "/data/a.parquet", table + "/data/p=1/b.parquet",
          table + "/metadata/v1.metadata.json");
      assertThat(sizes).containsExactlyInAnyOrder((long) CONTENT.length, 1L, 2L);

      io.deletePrefix(table + "/data");
      assertThat(io.listPrefix(table)).extracting(FileInfo::location).containsExactly(table + "/metadata/v1.metadata.json");
      assertThat(io.newInputFile(root + "/listed-other/data/c.parquet").exists()).isTrue();
    }
  }

  @Test
  void noOptionLeavesTheConnector() {
    try (StorageFileIO io = io()) {
      io.newInputFile(root + "/any").exists();
      assertThat(io.properties()).isEmpty();
    }
  }

  @Test
  void theRequestsOfItsStoragesAreCountedByKindUntilItCloses() throws IOException {
    StorageFileIO io = io();
    assertThat(io.requests()).isEqualTo(RequestCounts.ZERO);

    write(io.newOutputFile(root + "/counted/a.parquet").create(), CONTENT);
    write(io.newOutputFile(root + "/counted/b.parquet").createOrOverwrite(), CONTENT);
    RequestCounts written = io.requests();
    read(io.newInputFile(root + "/counted/a.parquet"));
    io.deleteFile(root + "/counted/b.parquet");
    RequestCounts readAndDeleted = io.requests().minus(written);

    assertThat(written.total()).isPositive();
    assertThat(readAndDeleted.get(RequestKind.DELETE)).isEqualTo(1);
    assertThat(readAndDeleted.total()).isGreaterThan(1);
    io.close();
    assertThat(io.requests()).isEqualTo(RequestCounts.ZERO);
  }

  private static void write(PositionOutputStream out, byte[] content) throws IOException {
    try (out) {
      out.write(content, 0, 1);
      out.write(content, 1, content.length - 1);
      assertThat(out.getPos()).isEqualTo(content.length);
    }
  }

  private static byte[] read(InputFile file) throws IOException {
    try (SeekableInputStream in = file.newStream()) {
      return in.readAllBytes();
    }
  }
}
