package io.mergesink.core.maintenance;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.CloseableIterator;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** A small keyed table and a model of its rows, for maintenance tests. */
final class Tables {
  static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("qty", PrimitiveType.INTEGER, true));
  static final HadoopStorage STORAGE = HadoopStorage.withDefaults();

  private Tables() {}

  static DeltaTable create(Path dir) throws Exception {
    return create(dir, Map.of());
  }

  static DeltaTable create(Path dir, Map<String, String> properties) throws Exception {
    DeltaTable table = DeltaTable.forPath(STORAGE, dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, properties));
    return table;
  }

  static Row row(long id, int round) {
    return Row.of(id, "n" + id + "-" + round, round);
  }

  /**
   * Applies {@code size} random upserts and deletes over keys [0, keys) to the writer and the model,
   * with the txn {@code appId} at {@code round}.
   */
  static void randomCommit(TableWriter writer, Map<Long, Row> model, Random random, int keys, int size, String appId, int round)
      throws Exception {
    ChangeSet.Builder changes = ChangeSet.builder();
    Map<Long, Row> batch = new java.util.LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      long id = random.nextInt(keys);
      batch.put(id, random.nextInt(4) == 0 ? null : row(id, round));
    }
    batch.forEach((id, row) -> {
      if (row == null) {
        changes.delete(Row.of(id));
      } else {
        changes.upsert(row);
      }
    });
    writer.commit(changes.txn(appId, writer.snapshot().txnVersion(appId), round).build());
    batch.forEach((id, row) -> {
      if (row == null) {
        model.remove(id);
      } else {
        model.put(id, row);
      }
    });
  }

  static List<Row> scan(DeltaTable table, Snapshot snapshot) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> scan = table.scan(snapshot, List.of())) {
      scan.forEachRemaining(rows::add);
    }
    return rows;
  }
}
