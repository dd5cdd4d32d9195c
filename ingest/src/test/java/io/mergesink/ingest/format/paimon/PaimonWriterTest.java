package io.mergesink.ingest.format.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.ingest.testing.PaimonTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PaimonWriter}s of two tasks on one bucket of a primary-key table with deletion vectors,
 * one committing while the other is between restoring the bucket and publishing its commit, as
 * tasks flushing at once do (docs/paimon.md, "Buckets, writers and compaction between tasks").
 */
class PaimonWriterTest {
  private static final String DATABASE = "default";
  private static final String TABLE = "customers";
  private static final int KEYS = 200;

  @TempDir Path temp;

  /**
   * Task B deletes key 1: its compaction marks the row in the bucket's deletion vectors and writes no
   * file. Task A, which restored the bucket before, updates key 2: its compaction writes the new row
   * and deletion vectors made from what it restored. Paimon sees no conflict on data files between
   * the two and takes A's vectors for the bucket's: without the check of the vectors a commit
   * replaces, key 1 was read again (the partial-update cell of the reliability matrix, a key deleted
   * by the last change of its partition).
   */
  @Test
  void aCompactionOfABucketRestoredBeforeAnotherTasksCompactionKeepsTheRowsThatOneDeleted() throws Exception {
    FileStoreTable table = createTable();
    List<Row> rows = new ArrayList<>();
    ChangeSet.Builder initial = ChangeSet.builder().rowSchema(PaimonSchemas.fromPaimon(table.rowType()));
    for (long id = 0; id < KEYS; id++) {
      Row row = Row.of(id, "v1", 1L);
      initial.upsert(row);
      if (id != 1 && id != 2) {
        rows.add(row);
      }
    }
    try (PaimonWriter first = writer("first")) {
      first.commit(table, initial.build(), keys -> Map.of());
    }

    ChangeSet update = ChangeSet.builder().rowSchema(PaimonSchemas.fromPaimon(table.rowType())).upsert(Row.of(2L, "v2", 2L)).build();
    ChangeSet delete = ChangeSet.builder().rowSchema(PaimonSchemas.fromPaimon(table.rowType())).delete(Row.of(1L), 2L).build();
    try (PaimonWriter a = writer("a"); PaimonWriter b = writer("b")) {
      // B commits while A writes its level-0 file: A restored the bucket when it took its row
      FileStoreTable beforeFirstFileOfA = withIO(table, new FirstDataFileHook(() -> {
        try {
          b.commit(load(), delete, keys -> Map.of());
        } catch (Exception e) {
          throw new IllegalStateException("task B's commit failed", e);
        }
      }));
      a.commit(beforeFirstFileOfA, update, keys -> Map.of());
    }
    rows.add(Row.of(2L, "v2", 2L));

    assertThat(PaimonTables.readRows(load())).as("key 1 deleted by B, key 2 updated by A").containsExactlyInAnyOrderElementsOf(rows);
  }

  /** A table of the partial-update cell: one bucket, deletion vectors, ordered by {@code seq}, deletes removing the row. */
  private FileStoreTable createTable() throws Exception {
    Schema schema = Schema.newBuilder().column("id", DataTypes.BIGINT().notNull()).column("name", DataTypes.STRING())
        .column("seq", DataTypes.BIGINT()).primaryKey("id").option("bucket", "1").option("deletion-vectors.enabled", "true")
        .option("merge-engine", "partial-update").option("partial-update.remove-record-on-delete", "true")
        .option("sequence.field", "seq").build();
    try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(Map.of("warehouse", warehouse()))))) {
      catalog.createDatabase(DATABASE, true);
      catalog.createTable(Identifier.create(DATABASE, TABLE), schema, false);
    }
    return load();
  }

  private FileStoreTable load() {
    return PaimonTables.load(warehouse(), DATABASE, TABLE);
  }

  private String warehouse() {
    return temp.resolve("lake").toString();
  }

  private PaimonWriter writer(String task) {
    return new PaimonWriter(task, List.of("id"), temp.resolve("spill-" + task).toString());
  }

  /** {@code table} with its files written through {@code io}. */
  private static FileStoreTable withIO(FileStoreTable table, LocalFileIO io) {
    return FileStoreTableFactory.create(io, table.location(), table.schema(), new Options(), table.catalogEnvironment());
  }

  /** The local file system, running {@code hook} once before the first data file is written. */
  private static final class FirstDataFileHook extends LocalFileIO {
    private static final long serialVersionUID = 1L;
    private final transient Runnable hook;
    private boolean ran;

    FirstDataFileHook(Runnable hook) {
      this.hook = hook;
    }

    @Override
    public PositionOutputStream newOutputStream(org.apache.paimon.fs.Path path, boolean overwrite) throws IOException {
      if (!ran && path.getName().startsWith("data-")) {
        ran = true;
        hook.run();
      }
      return super.newOutputStream(path, overwrite);
    }
  }
}
