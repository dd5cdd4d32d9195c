package io.mergesink.core.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.RequestKind;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.RandomMerges;
import io.mergesink.core.testing.TestS3;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Delta tables on S3 (S3Proxy): written through {@link S3Storage}, read back by Delta Kernel through
 * Hadoop's S3A (an independent reader and an independent S3 client), and what commits, table opens
 * and key index builds cost in requests: O(files touched), never O(table).
 */
class S3TableTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));
  private static final String APP = "s3-test:topic:0";
  /** No checkpoint unless a test asks for one, so that a commit's requests are the commit's alone. */
  private static final int NO_CHECKPOINT = 1_000;

  private static S3Storage storage;

  @BeforeAll
  static void startS3() {
    storage = S3Storage.create(TestS3.s3Options());
    TestS3.kernelReadsS3();
  }

  @AfterAll
  static void closeStorage() {
    storage.close();
  }

  @Test
  void deletionVectorMergesOnS3ReadBackWithKernelFromS3() throws Exception {
    DeltaTable table = create("merges", MergeStrategy.DELETION_VECTORS);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(5));
    Map<Long, Row> model = RandomMerges.commit(writer, APP, 12, 12);

    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrderElementsOf(model.values());
    assertThat(KernelTables.txnVersion(table.root(), APP)).contains(12L);
    assertThat(KernelTables.latestVersion(table.root())).isEqualTo(12);
    assertThat(storage.listFrom(table.root() + "/_delta_log", "")).extracting(info -> info.name())
        .contains("00000000000000000010.checkpoint.parquet", "_last_checkpoint");
  }

  @Test
  void aCommitCostsTheFilesItTouchesNotTheTable() throws Exception {
    RequestCounts small = oneKeyUpdate(table("update-small", 5));
    RequestCounts large = oneKeyUpdate(table("update-large", 30));

    assertThat(large).as("a one-file update into 30 files vs into 5 files").isEqualTo(small);
    // the new data file, the deletion vector file, the commit; no lookups, no listing
    assertThat(small.get(RequestKind.PUT)).as("%s", small).isEqualTo(2);
    assertThat(small.get(RequestKind.CONDITIONAL_PUT)).as("%s", small).isEqualTo(1);
    assertThat(small.get(RequestKind.HEAD)).as("%s", small).isZero();
    assertThat(small.get(RequestKind.LIST)).as("%s", small).isZero();
    assertThat(small.total()).as("%s", small).isLessThanOrEqualTo(4);
  }

  @Test
  void aKeyIndexBuildReadsEachFileOnceAndATableOpenReadsTheCheckpointAndTheTail() throws Exception {
    DeltaTable shortHistory = table("open-short", 15);
    DeltaTable longHistory = table("open-long", 45);
    for (DeltaTable table : List.of(shortHistory, longHistory)) {
      table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(1))
          .commit(ChangeSet.builder().txn(APP, OptionalLong.empty(), 1_000).build());
      for (long version = 0; version < 3; version++) {
        table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(NO_CHECKPOINT))
            .commit(ChangeSet.builder().txn(APP, OptionalLong.of(1_000 + version), 1_001 + version).build());
      }
    }

    RequestCounts openShort = open(shortHistory);
    RequestCounts openLong = open(longHistory);
    assertThat(openLong).as("open after 46 vs 16 commits, both a checkpoint and 3 commits back").isEqualTo(openShort);
    assertThat(openShort.get(RequestKind.LIST)).as("%s", openShort).isEqualTo(1);
    // _last_checkpoint and the 3 commits after the checkpoint
    assertThat(openShort.get(RequestKind.GET)).as("%s", openShort).isEqualTo(4);

    RequestCounts indexShort = writerOpen(shortHistory).minus(openShort);
    RequestCounts indexLong = writerOpen(longHistory).minus(openLong);
    long perFile = (indexLong.total() - indexShort.total()) / (45 - 15);
    assertThat(indexLong.total() - indexShort.total()).as("%s vs %s", indexLong, indexShort).isEqualTo(perFile * (45 - 15));
    // a file's key column: its length (HEAD) and one ranged GET of the footer and the column chunk
    assertThat(perFile).as("requests per indexed file, %s vs %s", indexLong, indexShort).isLessThanOrEqualTo(2);
  }

  /** A keyed table with {@code files} data files of 10 rows each, one commit per file. */
  private static DeltaTable table(String name, int files) throws Exception {
    DeltaTable table = create(name, MergeStrategy.DELETION_VECTORS);
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(NO_CHECKPOINT));
    for (int file = 0; file < files; file++) {
      ChangeSet.Builder rows = ChangeSet.builder();
      for (int row = 0; row < 10; row++) {
        long id = file * 10L + row;
        rows.upsert(Row.of(id, "loaded"));
      }
      writer.commit(rows.build());
    }
    return table;
  }

  private static DeltaTable create(String name, MergeStrategy strategy) throws Exception {
    DeltaTable table = DeltaTable.forPath(storage, TestS3.s3Root("table-" + name) + "/" + name);
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), strategy, Map.of()));
    return table;
  }

  /** The requests of updating key 3 (in the first file) through an open writer. */
  private static RequestCounts oneKeyUpdate(DeltaTable table) throws Exception {
    TableWriter writer = table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS).withCheckpointInterval(NO_CHECKPOINT));
    RequestCounts before = storage.requests();
    writer.commit(ChangeSet.builder().upsert(Row.of(3L, "updated")).build());
    RequestCounts commit = storage.requests().minus(before);
    assertThat(KernelTables.readRows(table.root())).contains(Row.of(3L, "updated")).doesNotContain(Row.of(3L, "loaded"));
    return commit;
  }

  private static RequestCounts open(DeltaTable table) throws Exception {
    RequestCounts before = storage.requests();
    Snapshot snapshot = table.snapshot();
    assertThat(snapshot.transactions().get(APP).version()).isEqualTo(1_003);
    return storage.requests().minus(before);
  }

  /** The requests of opening a writer: the snapshot, then the key index over every file. */
  private static RequestCounts writerOpen(DeltaTable table) throws Exception {
    RequestCounts before = storage.requests();
    table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
    return storage.requests().minus(before);
  }
}
