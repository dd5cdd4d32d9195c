package io.mergesink.core.rowtracking;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rows keep their stable row ids and row commit versions (PROTOCOL.md, "Row Tracking") through
 * everything MergeSink rewrites, as Delta Kernel reads them back: compaction moves rows without
 * changing either, copy-on-write copies survivors likewise, and an upsert of an existing key keeps
 * the row's id with the commit's version, as Delta's MERGE does.
 */
class StableRowIdsTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("v", PrimitiveType.STRING, true));
  private static final LocalStorage STORAGE = new LocalStorage();
  /** Compacts the small files of these small tables into one. */
  private static final CompactionOptions EVERY_SMALL_FILE = CompactionOptions.defaults().withMinSmallFiles(2);

  @TempDir Path dir;

  @Test
  void compactingTheSparkTableKeepsEveryRowsIdAndCommitVersion() throws Exception {
    String root = FixtureTables.copy("row-tracking-table", dir.resolve("t")).toString();
    DeltaTable table = DeltaTable.forPath(STORAGE, root);
    Map<Long, Tracking> before = trackingById(root);
    // what Spark reads from this table: sum(id * 1000003 + _metadata.row_id), sum(_metadata.row_commit_version)
    assertThat(before.entrySet().stream().mapToLong(e -> e.getKey() * 1000003 + e.getValue().rowId()).sum()).isEqualTo(4000016000L);
    assertThat(before.values().stream().mapToLong(Tracking::commitVersion).sum()).isEqualTo(100);

    CompactionResult result = new Compactor(STORAGE, EVERY_SMALL_FILE).compact(table.snapshot());

    assertThat(result).isInstanceOf(CompactionResult.Compacted.class);
    assertThat(table.snapshot().files()).hasSize(1);
    assertThat(trackingById(root)).isEqualTo(before);

    // the sink writes on: an updated row keeps its id and takes the commit's version
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), List.of("id"));
    CommitResult update = writer.commit(ChangeSet.builder().upsert(Row.of(7L, "v-7-sink")).build());
    Map<Long, Tracking> expected = new HashMap<>(before);
    expected.put(7L, new Tracking(before.get(7L).rowId(), update.version()));
    assertThat(trackingById(root)).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void anUpsertKeepsTheRowsIdAndDeletesAndCompactionKeepTheOthers(MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(STORAGE, dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), strategy, Map.of(RowTracking.ENABLE_PROPERTY, "true")));
    String root = table.root();
    TableWriter writer = table.newWriter(WriterOptions.defaults(strategy), List.of("id"));
    for (long first : new long[] {0, 10}) {
      ChangeSet.Builder inserts = ChangeSet.builder();
      for (long id = first; id < first + 10; id++) {
        inserts.upsert(Row.of(id, "v" + id));
      }
      writer.commit(inserts.build());
    }
    Map<Long, Tracking> inserted = trackingById(root);
    assertThat(inserted.values().stream().map(Tracking::rowId).distinct()).hasSize(20);

    CommitResult update = writer.commit(ChangeSet.builder().upsert(Row.of(3L, "v3-updated")).build());

    Map<Long, Tracking> expected = new HashMap<>(inserted);
    expected.put(3L, new Tracking(inserted.get(3L).rowId(), update.version()));
    assertThat(trackingById(root)).isEqualTo(expected);

    writer.commit(ChangeSet.builder().delete(Row.of(5L)).delete(Row.of(12L)).build());
    expected.remove(5L);
    expected.remove(12L);
    assertThat(trackingById(root)).isEqualTo(expected);
    writer.commit(ChangeSet.builder().upsert(Row.of(20L, "v20")).build()); // a second file, for compaction to merge
    Map<Long, Tracking> beforeCompaction = trackingById(root);
    assertThat(beforeCompaction).containsAllEntriesOf(expected).hasSize(expected.size() + 1);

    CompactionResult compacted = new Compactor(STORAGE, EVERY_SMALL_FILE).compact(table.snapshot());

    assertThat(compacted).isInstanceOf(CompactionResult.Compacted.class);
    assertThat(table.snapshot().files()).hasSize(1);
    assertThat(trackingById(root)).isEqualTo(beforeCompaction);
  }

  /** A row's stable row id and row commit version. */
  private record Tracking(long rowId, long commitVersion) {}

  /** Per id, the row's stable row id and row commit version as Delta Kernel reads them. */
  private static Map<Long, Tracking> trackingById(String root) {
    Map<Long, Tracking> tracking = new HashMap<>();
    for (Row row : KernelTables.readRowsWithRowTracking(root)) {
      Tracking previous = tracking.put((Long) row.get(0), new Tracking((Long) row.get(2), (Long) row.get(3)));
      assertThat(previous).as("one live row per id").isNull();
    }
    return tracking;
  }
}
