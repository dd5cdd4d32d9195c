package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.deletionvectors.DeletionVectorStore;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The end-of-scenario checks (docs/design.md, "How it is tested"): the table read by Delta Kernel equals the model (no row
 * lost, none duplicated, none stale), every partition's txn version is its end offset − 1, and
 * every live file and deletion vector the log references exists.
 */
public final class TableAudit {
  private TableAudit() {}

  /** What one check saw; lost and duplicated are asserted to be 0 before it is returned. */
  public record Result(long rowsChecked, long lost, long duplicated, long stale) {
    Result plus(Result other) {
      return new Result(rowsChecked + other.rowsChecked, lost + other.lost, duplicated + other.duplicated, stale + other.stale);
    }

    static final Result NONE = new Result(0, 0, 0, 0);
  }

  /**
   * Checks the table at {@code table} (a local directory) against {@code model} (key → row; the
   * key is column 0) and {@code endOffsets}, with txn app ids {@code appIdPrefix:<topic>:<partition>}.
   */
  public static Result check(String scenario, Path table, Map<Long, Row> model, Map<TopicPartition, Long> endOffsets,
      String appIdPrefix) {
    String path = table.toString();
    List<Row> rows = KernelTables.readRows(path);
    Map<Long, Integer> seen = new HashMap<>();
    long stale = 0;
    for (Row row : rows) {
      long id = (Long) row.get(0);
      seen.merge(id, 1, Integer::sum);
      if (model.containsKey(id) && !model.get(id).equals(row)) {
        stale++;
      }
    }
    long duplicated = seen.values().stream().mapToLong(count -> count - 1).sum();
    long lost = model.keySet().stream().filter(id -> !seen.containsKey(id)).count();
    long extra = seen.keySet().stream().filter(id -> !model.containsKey(id)).count();
    Result result = new Result(rows.size(), lost, duplicated, stale + extra);
    List<String> examples = new ArrayList<>();
    for (Row row : rows) {
      long id = (Long) row.get(0);
      if (examples.size() < 5 && !row.equals(model.get(id))) {
        examples.add("id " + id + ": table " + row + ", model " + model.get(id));
      }
    }
    String context = scenario + " (table " + path + ")";
    assertThat(new HashSet<>(rows)).as(context + ": rows read by Delta Kernel equal the model; " + result + "; e.g. " + examples)
        .isEqualTo(new HashSet<>(model.values()));
    assertThat(result.lost()).as(context + ": rows lost").isZero();
    assertThat(result.duplicated()).as(context + ": rows duplicated").isZero();

    Map<TopicPartition, Optional<Long>> expected = new HashMap<>();
    Map<TopicPartition, Optional<Long>> actual = new HashMap<>();
    endOffsets.forEach((partition, end) -> {
      if (end > 0) {
        expected.put(partition, Optional.of(end - 1));
        actual.put(partition, KernelTables.txnVersion(path, appIdPrefix + ":" + partition.topic() + ":" + partition.partition()));
      }
    });
    assertThat(actual).as(context + ": txn version of every partition is its end offset - 1").isEqualTo(expected);
    assertThat(missingFiles(table)).as(context + ": files referenced by the log that do not exist").isEmpty();
    System.out.printf("RELIABILITY scenario=%s rows=%d lost=%d duplicated=%d%n", scenario, rows.size(), lost, duplicated);
    return result;
  }

  /** Live data files and deletion vector files of the latest snapshot (our own log replay) that are missing. */
  static List<String> missingFiles(Path table) {
    String root = table.toString();
    List<String> missing = new ArrayList<>();
    try {
      Snapshot snapshot = new SnapshotLoader(HadoopStorage.withDefaults()).latest(root);
      Set<String> checked = new HashSet<>();
      for (AddFile add : snapshot.files().values()) {
        String data = LogPaths.resolve(root, add.path());
        if (checked.add(data) && !Files.exists(Paths.get(data))) {
          missing.add("data file " + data);
        }
        if (add.deletionVector() != null && !add.deletionVector().isInline()) {
          String dv = DeletionVectorStore.absolutePath(root, add.deletionVector());
          String local = dv.startsWith("file:") ? Paths.get(java.net.URI.create(dv)).toString() : dv;
          if (checked.add(local) && !Files.exists(Paths.get(local))) {
            missing.add("deletion vector " + local + " of " + add.path());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("replaying the log of " + root, e);
    }
    return missing;
  }
}
