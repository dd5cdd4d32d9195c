package io.mergesink.core.testing;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.writer.TableWriter;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** A workload of keyed merges for tables of {@code (id BIGINT, name STRING)}, with the rows it should leave. */
public final class RandomMerges {
  private static final int KEYS = 100;
  private static final int DRAWS_PER_COMMIT = 40;

  private RandomMerges() {}

  /**
   * Commits {@code commits} change sets through {@code writer}, each of up to 40 distinct random
   * keys below 100, one in five a delete and the others upserts of {@code (id, "v<commit>")}, each
   * commit with the txn of {@code app} at the commit's number.
   *
   * @return the rows the table should hold, by key
   */
  public static Map<Long, Row> commit(TableWriter writer, String app, int commits, long seed)
      throws IOException, FencedException {
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(seed);
    for (int commit = 1; commit <= commits; commit++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      Set<Long> touched = new HashSet<>();
      for (int i = 0; i < DRAWS_PER_COMMIT; i++) {
        long id = random.nextInt(KEYS);
        if (!touched.add(id)) {
          continue;
        }
        if (random.nextInt(5) == 0) {
          changes.delete(Row.of(id));
          model.remove(id);
        } else {
          Row row = Row.of(id, "v" + commit);
          changes.upsert(row);
          model.put(id, row);
        }
      }
      writer.commit(changes.txn(app, writer.snapshot().txnVersion(app), commit).build());
    }
    return model;
  }
}
