package io.mergesink.ingest.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.testing.KernelChangeFeed;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.core.testing.TestS3;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * The end-of-scenario checks (docs/design.md, "How it is tested"), on the table as Delta Kernel
 * reads it (an Iceberg table as Iceberg's generic reader reads it, positions from its snapshot
 * summaries: the overloads that take a {@link SinkTables}): every expected row there exactly once
 * and as expected (upsert tables: no key with two live rows, none lost, none stale, none that should be gone; append tables: every change event of
 * the log once, by topic, partition and offset, no row for the tombstone after a delete), every partition's txn version its end offset − 1, and
 * every live file and deletion vector the log references present. Tables on S3 (the test server)
 * are read from S3: rows and txns by Delta Kernel through Hadoop's S3A, the files the log references
 * looked up with our S3 storage. {@link #changeFeed} checks that a table with a Change Data Feed is
 * what its feed, replayed from version 0, rebuilds.
 */
public final class TableAudit {
  private static final int EXAMPLES = 5;

  private TableAudit() {}

  /**
   * What one check saw; every count but {@code rowsChecked} is asserted to be 0 before it is returned.
   *
   * @param lost expected rows the table does not have
   * @param duplicated rows beyond the first of one key (upsert tables) or one event (append tables)
   * @param stale keys or events none of whose rows holds the expected values
   * @param extra keys or events the table has and should not (deleted, or never written)
   */
  public record Result(long rowsChecked, long lost, long duplicated, long stale, long extra) {
    @Override
    public String toString() {
      return "rows=" + rowsChecked + " lost=" + lost + " duplicated=" + duplicated + " stale=" + stale + " extra=" + extra;
    }
  }

  /**
   * The table's Change Data Feed, read with Delta Kernel ({@link KernelChangeFeed}) and replayed
   * from version 0, must rebuild the table exactly: a change recorded twice (an insert of a row the
   * table has once, a delete of a row already gone) or lost shows as a difference.
   */
  public static void changeFeed(String scenario, String table) {
    List<KernelChangeFeed.Version> feed = KernelChangeFeed.read(table);
    Map<Row, Integer> rebuilt = counts(KernelChangeFeed.rebuild(feed));
    Map<Row, Integer> rows = counts(KernelTables.readRows(table));
    long changes = feed.stream().mapToLong(version -> version.changes().size()).sum();
    long fromChangeDataFiles = feed.stream().filter(KernelChangeFeed.Version::fromChangeDataFiles).count();
    List<String> examples = new ArrayList<>();
    rebuilt.forEach((row, count) -> {
      if (!count.equals(rows.get(row))) {
        example(examples, row + " is " + count + " times in the replayed feed, " + rows.getOrDefault(row, 0) + " in the table");
      }
    });
    rows.forEach((row, count) -> {
      if (!rebuilt.containsKey(row)) {
        example(examples, row + " is " + count + " times in the table, not in the replayed feed");
      }
    });
    System.out.printf("RELIABILITY change feed scenario=\"%s\" versions=%d with change data files=%d changes=%d rows=%d%n",
        scenario, feed.size(), fromChangeDataFiles, changes, rows.values().stream().mapToLong(Integer::longValue).sum());
    assertThat(examples).as(scenario + " (table " + table + "): the change feed replayed from version 0 rebuilds the table")
        .isEmpty();
  }

  private static Map<Row, Integer> counts(List<Row> rows) {
    Map<Row, Integer> counts = new HashMap<>();
    rows.forEach(row -> counts.merge(row, 1, Integer::sum));
    return counts;
  }

  /**
   * The whole audit: rows, txn versions ({@code appIdPrefix:<topic>:<partition>} at end offset − 1 for
   * every partition that has records), referenced files.
   */
  public static <K> Result check(String scenario, Path table, Expected<K> expected, Map<TopicPartition, Long> endOffsets,
      String appIdPrefix) {
    return check(scenario, table.toString(), expected, endOffsets, appIdPrefix);
  }

  /**
   * {@link #check(String, Path, Expected, Map, String)} of a table anywhere: a local path, or an
   * {@code s3://} URI on the test S3 server, which Delta Kernel reads through Hadoop's S3A.
   */
  public static <K> Result check(String scenario, String table, Expected<K> expected, Map<TopicPartition, Long> endOffsets,
      String appIdPrefix) {
    return check(SinkTables.DELTA, scenario, table, expected, endOffsets, appIdPrefix);
  }

  /**
   * {@link #check(String, String, Expected, Map, String)} of a table of {@code format}: rows,
   * positions and files as that format's independent reader sees them (Iceberg: positions from
   * the snapshot summaries, live data and delete files).
   */
  public static <K> Result check(SinkTables format, String scenario, String table, Expected<K> expected,
      Map<TopicPartition, Long> endOffsets, String appIdPrefix) {
    Result result = rows(format, scenario, table, expected, row -> true);
    Map<TopicPartition, Optional<Long>> wanted = new HashMap<>();
    Map<TopicPartition, Optional<Long>> actual = new HashMap<>();
    endOffsets.forEach((partition, end) -> {
      if (end > 0) {
        wanted.put(partition, Optional.of(end - 1));
        actual.put(partition, format.position(table, appIdPrefix + ":" + partition.topic() + ":" + partition.partition()));
      }
    });
    String context = scenario + " (table " + table + ")";
    assertThat(actual).as(context + ": txn version of every partition is its end offset - 1").isEqualTo(wanted);
    assertThat(format.missingFiles(table)).as(context + ": live files of the table's metadata that do not exist").isEmpty();
    return result;
  }

  /**
   * Compares the rows of {@code table} that {@code view} accepts with the expected rows it accepts:
   * each expected row exactly once and equal, no other row. Prints the counts, then asserts them.
   */
  public static <K> Result rows(String scenario, String table, Expected<K> expected, Predicate<Map<String, Object>> view) {
    return rows(SinkTables.DELTA, scenario, table, expected, view);
  }

  /** {@link #rows(String, String, Expected, Predicate)} of a table of {@code format}. */
  public static <K> Result rows(SinkTables format, String scenario, String table, Expected<K> expected,
      Predicate<Map<String, Object>> view) {
    Comparison comparison = compare(format, table, expected, view);
    Result result = comparison.result();
    System.out.printf("RELIABILITY audit scenario=\"%s\" %s%n", scenario, result);
    assertThat(result).as(scenario + " (table " + table + ", rows by " + expected.identifiedBy() + "): expected every row once "
        + "and as the model says; e.g. " + comparison.examples()).isEqualTo(new Result(result.rowsChecked(), 0, 0, 0, 0));
    return result;
  }

  /**
   * Whether {@code table} holds the {@code expected} rows, each once, compared as
   * {@link #check(String, String, Expected, Map, String)} compares them: for tests that wait for a
   * table to catch up.
   */
  public static boolean holds(String table, Expected<?> expected) {
    Result result = compare(SinkTables.DELTA, table, expected, row -> true).result();
    return result.equals(new Result(result.rowsChecked(), 0, 0, 0, 0));
  }

  /**
   * Asserts that {@code table} holds the {@code expected} rows, each once; unlike
   * {@link #check(String, String, Expected, Map, String)}, it checks neither txns nor files.
   */
  public static void assertHolds(String scenario, String table, Expected<?> expected) {
    rows(scenario, table, expected, row -> true);
  }

  /** The counts of a comparison, and examples of its differences. */
  private record Comparison(Result result, List<String> examples) {}

  private static <K> Comparison compare(SinkTables format, String table, Expected<K> expected,
      Predicate<Map<String, Object>> view) {
    Map<K, List<Map<String, Object>>> found = new LinkedHashMap<>();
    long checked = 0;
    for (Map<String, Object> row : readRows(format, table)) {
      if (view.test(row)) {
        checked++;
        found.computeIfAbsent(expected.identify(row), id -> new ArrayList<>()).add(row);
      }
    }
    Map<K, Map<String, Object>> wanted = expected.only(view).rows();
    List<String> examples = new ArrayList<>();
    long duplicated = 0;
    long stale = 0;
    long extra = 0;
    for (Map.Entry<K, List<Map<String, Object>>> rows : found.entrySet()) {
      Map<String, Object> model = wanted.get(rows.getKey());
      if (rows.getValue().size() > 1) {
        duplicated += rows.getValue().size() - 1;
        example(examples, rows.getKey() + " has " + rows.getValue().size() + " live rows " + rows.getValue());
      }
      if (model == null) {
        extra++;
        example(examples, rows.getKey() + " should not be there: " + rows.getValue());
      } else if (rows.getValue().stream().noneMatch(row -> expected.matches(model, row))) {
        stale++;
        example(examples, rows.getKey() + ": table " + rows.getValue() + ", expected " + model);
      }
    }
    long lost = 0;
    for (K id : wanted.keySet()) {
      if (!found.containsKey(id) && !expected.isOptional(wanted.get(id))) {
        lost++;
        example(examples, id + " is missing, expected " + wanted.get(id));
      }
    }
    return new Comparison(new Result(checked, lost, duplicated, stale, extra), examples);
  }

  /** Every live row of the latest snapshot as Delta Kernel reads it, column name → value. */
  public static List<Map<String, Object>> readRows(String table) {
    return readRows(SinkTables.DELTA, table);
  }

  /** Every live row of the latest snapshot of a table of {@code format}, column name → value as the engine holds it. */
  public static List<Map<String, Object>> readRows(SinkTables format, String table) {
    List<String> names = format.schema(table).fieldNames();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Row row : format.readRows(table)) {
      Map<String, Object> named = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) {
        named.put(names.get(i), row.get(i));
      }
      rows.add(named);
    }
    return rows;
  }

  /**
   * Live data files and deletion vector files of the latest snapshot (our own log replay) that are
   * missing, looked up through the table's storage (local disk, or S3 or Azure on the test servers).
   */
  public static List<String> missingFiles(String root) {
    List<String> missing = new ArrayList<>();
    try (Storage storage = Storages.forRoot(root, testServers(root))) {
      Snapshot snapshot = new SnapshotLoader(storage).latest(root);
      Set<String> checked = new HashSet<>();
      for (AddFile add : snapshot.files().values()) {
        String data = LogPaths.resolve(root, add.path());
        if (checked.add(data) && !storage.exists(data)) {
          missing.add("data file " + data);
        }
        if (add.deletionVector() != null && !add.deletionVector().isInline()) {
          String dv = DeletionVectorStore.absolutePath(root, add.deletionVector());
          String path = dv.startsWith("file:") ? Paths.get(URI.create(dv)).toString() : dv;
          if (checked.add(path) && !storage.exists(path)) {
            missing.add("deletion vector " + path + " of " + add.path());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("replaying the log of " + root, e);
    }
    return missing;
  }

  /** Storage options that reach the test server {@code root} is on, if any. */
  private static StorageOptions testServers(String root) {
    if (Storages.isS3(root)) {
      return StorageOptions.defaults().withS3(TestS3.s3Options());
    }
    return Storages.isAzure(root) ? StorageOptions.defaults().withAzure(TestAzurite.azureOptions()) : StorageOptions.defaults();
  }

  private static void example(List<String> examples, String example) {
    if (examples.size() < EXAMPLES) {
      examples.add(example);
    }
  }
}
