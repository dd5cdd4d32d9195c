package io.mergesink.ingest.format.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.ingest.format.WriteKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storage failure in a schema change of an Iceberg table reaches the engine as the
 * {@link IOException} it is, as in a commit of rows: the engine keeps the record and tries again,
 * where an unchecked exception would stop the task.
 */
class IcebergStorageFailuresTest {
  private static final TableIdentifier ID = TableIdentifier.of("default", "items");

  @TempDir Path dir;

  @Test
  void aFailedMetadataWriteOfAnAddedColumnIsAnIOExceptionAndTheChangeLandsWhenTriedAgain() throws IOException {
    FailingMetadataWrites io = new FailingMetadataWrites(new StorageFileIO(StorageOptions.defaults()));
    try (JdbcCatalog catalog = new JdbcCatalog(properties -> io, null, true)) {
      catalog.setConf(new Configuration());
      catalog.initialize("iceberg", Map.of("uri", "jdbc:sqlite:" + dir.resolve("catalog.db"), "warehouse", dir.toString()));
      catalog.createNamespace(Namespace.of("default"));
      Table table = catalog.buildTable(ID, new Schema(Types.NestedField.required(1, "id", Types.LongType.get()))).create();
      IcebergFormatTable formatTable = new IcebergFormatTable(table, () -> catalog.loadTable(ID),
          new IcebergFormatTable.Maintenance(false, 0.25, 10, 1 << 20), WriteKind.BY_KEY, List.of("id"),
          RowLevelOperationMode.MERGE_ON_READ);
      List<StructField> tier = List.of(new StructField("tier", PrimitiveType.STRING, true));

      io.failing = true;
      assertThatThrownBy(() -> formatTable.addColumns(tier)).isInstanceOf(IOException.class)
          .hasMessageContaining("metadata.json");
      io.failing = false;
      formatTable.addColumns(tier);

      assertThat(catalog.loadTable(ID).schema().findField("tier")).isNotNull();
    }
  }

  /** A file IO whose writes of metadata files fail, as a full disk or a dropped connection fails them, while {@link #failing}. */
  private static final class FailingMetadataWrites implements FileIO {
    private final FileIO io;
    private volatile boolean failing;

    FailingMetadataWrites(FileIO io) {
      this.io = io;
    }

    @Override
    public InputFile newInputFile(String path) {
      return io.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      if (failing && path.endsWith(".metadata.json")) {
        throw new UncheckedIOException(new IOException("injected failure writing " + path));
      }
      return io.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      io.deleteFile(path);
    }

    @Override
    public void close() {
      io.close();
    }
  }
}
