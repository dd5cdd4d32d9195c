package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random upserts, deletes, re-inserts, truncates and empty batches under each upsert strategy; after every
 * commit Delta Kernel must read exactly the rows of an in-memory model, including across
 * checkpoints and writers re-opened from the table alone.
 */
class MergeModelTest {
  static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", new DecimalType(12, 2), true),
      new StructField("updated_at", PrimitiveType.TIMESTAMP, true),
      new StructField("labels", new ArrayType(PrimitiveType.STRING, true), true));
  static final String APP_ID = "model:orders:0";
  private static final int ROUNDS = 30;
  private static final int KEYS = 1500;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = MergeStrategy.class, names = {"DELETION_VECTORS", "COPY_ON_WRITE"})
  void tableEqualsModelAfterEveryCommit(MergeStrategy strategy) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String context = strategy + " seed=" + seed;
    LocalStorage storage = new LocalStorage();
    DeltaTable table = DeltaTable.forPath(storage, dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), strategy, Map.of()));
    WriterOptions options = WriterOptions.defaults(strategy).withCheckpointInterval(4).withTargetFileSizeBytes(16 * 1024);
    TableWriter writer = table.newWriter(options);
    Map<Long, Row> model = new HashMap<>();

    for (int round = 1; round <= ROUNDS; round++) {
      if (round % 7 == 0) {
        writer = table.newWriter(options);
      }
      ChangeSet.Builder changes = ChangeSet.builder();
      Map<Long, Row> batch = new LinkedHashMap<>();
      if (round % 11 == 0) {
        changes.truncate();
        model.clear();
      }
      int size = round % 9 == 0 ? 0 : random.nextInt(300);
      for (int i = 0; i < size; i++) {
        long id = random.nextInt(KEYS);
        batch.put(id, random.nextInt(4) == 0 ? null : row(id, round, random));
      }
      batch.forEach((id, row) -> {
        if (row == null) {
          changes.delete(Row.of(id));
          model.remove(id);
        } else {
          changes.upsert(row);
          model.put(id, row);
        }
      });
      changes.txn(APP_ID, writer.snapshot().txnVersion(APP_ID), round);
      writer.commit(changes.build());

      String root = table.root();
      assertThat(new HashSet<>(KernelTables.readRows(root))).as("%s round %d", context, round)
          .isEqualTo(new HashSet<>(model.values()));
      assertThat(KernelTables.readRows(root)).as("%s round %d: one live row per key", context, round).hasSize(model.size());
      assertThat(KernelTables.txnVersion(root, APP_ID)).as(context).contains((long) round);
    }

    Snapshot reopened = table.snapshot();
    assertThat(reopened.lastCheckpointVersion().orElse(-1)).as(context).isGreaterThan(0);
    assertThat(scan(table, reopened)).as(context).containsExactlyInAnyOrderElementsOf(model.values());
  }

  static Row row(long id, int round, Random random) {
    List<String> labels = random.nextBoolean() ? null : List.of("r" + round, "k" + id % 5);
    return Row.of(id, random.nextInt(10) == 0 ? null : "name-" + id + "-" + round,
        BigDecimal.valueOf(random.nextInt(1_000_000), 2), 1_767_225_600_000_000L + round * 1_000_000L + id,
        labels == null ? null : new ArrayList<>(labels));
  }

  static List<Row> scan(DeltaTable table, Snapshot snapshot) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> scan = table.scan(snapshot, List.of())) {
      scan.forEachRemaining(rows::add);
    }
    return rows;
  }
}
