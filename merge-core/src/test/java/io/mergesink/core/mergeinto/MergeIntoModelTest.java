package io.mergesink.core.mergeinto;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random clause lists over random sources and targets, under both landings, against an in-memory
 * model of SQL MERGE on a keyed table (docs/design.md, "MERGE engine"). The target holds keys
 * with two live rows, appended as a foreign writer leaves them. After every merge Delta Kernel
 * reads the table, and each key's rows must be what the model says: for a key with several target
 * rows, what one of them leads to.
 *
 * <p>Seeded loops rather than jqwik properties: every try needs a real table on disk and a Kernel
 * read, and JUnit's {@code @TempDir}. The seed is in every failure message; rerun one with
 * {@code -Dmergeinto.seed=<seed>}.
 */
class MergeIntoModelTest {
  static final StructType TABLE = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("a", PrimitiveType.INTEGER, true),
      new StructField("b", PrimitiveType.STRING, true),
      new StructField("c", PrimitiveType.LONG, true));
  /** A source with every table column, and one lacking {@code c} (whose UPDATE SET * keeps it). */
  static final StructType FULL_SOURCE = TABLE;
  static final StructType PARTIAL_SOURCE = StructType.of(TABLE.field(0), TABLE.field(1), TABLE.field(2));
  private static final int KEYS = 80;
  private static final int ROUNDS = 14;

  @TempDir Path dir;

  /** Both landings, on a plain table and on one partitioned by {@code a} (target values of {@code a} come from partition values). */
  @ParameterizedTest(name = "{0}, partitioned by {1}")
  @CsvSource({"DELETION_VECTORS, ''", "COPY_ON_WRITE, ''", "DELETION_VECTORS, a", "COPY_ON_WRITE, a"})
  void everyMergeLandsWhatTheModelSays(MergeStrategy strategy, String partitionColumn) throws Exception {
    long seed = Long.getLong("mergeinto.seed", System.nanoTime());
    Random random = new Random(seed);
    System.out.println("MergeIntoModelTest " + strategy + " partitioned by '" + partitionColumn + "' seed=" + seed);
    LocalStorage storage = new LocalStorage();
    DeltaTable table = DeltaTable.forPath(storage, dir.resolve("t").toString());
    List<String> partitions = partitionColumn == null || partitionColumn.isEmpty() ? List.of() : List.of(partitionColumn);
    table.createIfAbsent(new TableSpec(TABLE, List.of("id"), partitions, strategy, Map.of()));
    WriterOptions options = WriterOptions.defaults(strategy).withTargetFileSizeBytes(2 * 1024);
    TableWriter writer = table.newWriter(options);
    Map<Long, List<Row>> model = new HashMap<>();

    // a target over several files, some rows deleted before
    for (int commit = 0; commit < 3; commit++) {
      ChangeSet.Builder changes = ChangeSet.builder();
      for (long id = commit; id < KEYS; id += 2 + random.nextInt(3)) {
        Row row = randomRow(random, id);
        changes.upsert(row);
        model.put(id, List.of(row));
      }
      writer.commit(changes.build());
    }
    for (int round = 1; round <= ROUNDS; round++) {
      String context = strategy + " partitioned by '" + partitionColumn + "' seed=" + seed + " round " + round;
      if (round % 5 == 1) {
        appendDuplicates(table, random, model);
        writer.refresh();
      }
      if (round % 4 == 0) {
        writer = table.newWriter(options);
      }
      RandomClauses.Generated clauses = RandomClauses.generate(random, random.nextBoolean() ? FULL_SOURCE : PARTIAL_SOURCE);
      MergeSpec spec = clauses.spec();
      List<Row> source = randomSource(random, spec.sourceSchema(), spec.sourceDuplicates());
      MergeResult result = MergeInto.on(writer).execute(spec, source);

      Map<Long, List<Row>> actual = byKey(KernelTables.readRows(table.root()));
      MergeModel.Outcomes expected = MergeModel.apply(spec, source, model);
      for (Long key : union(actual.keySet(), model.keySet())) {
        List<Row> rows = actual.getOrDefault(key, List.of());
        assertThat(expected.candidates(key)).as("%s key %d: clauses %s, source rows of the key %s, target rows %s", context, key,
            clauses.description(), MergeModel.rowsOf(source, key), model.get(key)).contains(sorted(rows));
        if (rows.isEmpty()) {
          model.remove(key);
        } else {
          model.put(key, rows);
        }
      }
      if (spec.targetColumns().isEmpty()) {
        assertThat(result.actions().targetRowsRead()).as("%s: no clause declared target columns", context).isZero();
      }
    }
  }

  private static void appendDuplicates(DeltaTable table, Random random, Map<Long, List<Row>> model) throws Exception {
    TableWriter append = table.newAppendWriter(WriterOptions.defaults());
    ChangeSet.Builder changes = ChangeSet.builder();
    for (int i = 0; i < 6; i++) {
      long id = random.nextInt(KEYS);
      Row row = randomRow(random, id);
      changes.upsert(row);
      List<Row> rows = new ArrayList<>(model.getOrDefault(id, List.of()));
      rows.add(row);
      model.put(id, sorted(rows));
    }
    append.commit(changes.build());
  }

  static Row randomRow(Random random, long id) {
    return Row.of(id, random.nextInt(6) == 0 ? null : random.nextInt(20), random.nextInt(5) == 0 ? null : "b" + random.nextInt(50),
        random.nextInt(5) == 0 ? null : (long) random.nextInt(100));
  }

  private static List<Row> randomSource(Random random, StructType schema, SourceDuplicates duplicates) {
    int size = random.nextInt(50);
    List<Row> rows = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < size; i++) {
      long id = random.nextInt(KEYS + 20);
      if (!seen.add(id) && duplicates == SourceDuplicates.REJECT) {
        continue;
      }
      Row full = randomRow(random, id);
      rows.add(schema.size() == TABLE.size() ? full : Row.of(full.get(0), full.get(1), full.get(2)));
    }
    return rows;
  }

  private static Map<Long, List<Row>> byKey(List<Row> rows) {
    Map<Long, List<Row>> byKey = new HashMap<>();
    for (Row row : rows) {
      byKey.computeIfAbsent((Long) row.get(0), id -> new ArrayList<>()).add(row);
    }
    byKey.replaceAll((id, list) -> sorted(list));
    return byKey;
  }

  static List<Row> sorted(List<Row> rows) {
    List<Row> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Row::toString));
    return List.copyOf(copy);
  }

  private static Set<Long> union(Set<Long> a, Set<Long> b) {
    Set<Long> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }
}
