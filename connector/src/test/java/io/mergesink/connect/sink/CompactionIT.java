package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink compacts its tables between commits: with many small commits, OPTIMIZE commits appear,
 * the live file count stays small, and the table still equals the source.
 */
class CompactionIT {
  private static final String TOPIC = MergeSinkIT.TOPIC;

  @TempDir Path tables;

  @Test
  void smallFilesAreCompactedWhileIngestingAndNothingIsLost() {
    try (LocalConnect connect = LocalConnect.start(1)) {
      connect.createTopic(TOPIC, 2);
      Map<String, String> config = new HashMap<>();
      config.put("connector.class", MergeSinkConnector.class.getName());
      config.put("tasks.max", "1");
      config.put("topics", TOPIC);
      config.put("table.root", tables.toString());
      config.put("commit.interval.ms", "100");
      config.put("compaction.min.files", "4");
      connect.startConnector(MergeSinkIT.CONNECTOR, config, 1);

      Random random = new Random(7);
      try (ChangeStream stream = new ChangeStream(connect, TOPIC, 2)) {
        for (int batch = 0; batch < 30; batch++) {
          for (int i = 0; i < 200; i++) {
            long id = random.nextInt(3_000);
            if (random.nextInt(5) == 0) {
              stream.delete(id, false);
            } else {
              stream.upsert(id);
            }
          }
          stream.flush();
          int done = batch;
          Await.until("the table to hold batch " + done, MergeSinkIT.CATCH_UP, () -> caughtUp(connect));
        }
        String table = tables.resolve(TOPIC).toString();
        Snapshot snapshot = snapshot(table);
        assertThat(optimizeCommits(table, snapshot.version())).as("OPTIMIZE commits made by the sink").isPositive();
        assertThat(snapshot.files()).as("live files after 30 flushes of 2 partitions").hasSizeLessThan(20);
        assertThat(new HashSet<>(KernelTables.readRows(table))).isEqualTo(new HashSet<>(stream.model().values()));
        assertThat(KernelTables.readRows(table)).hasSize(stream.model().size());
      }
    }
  }

  private boolean caughtUp(LocalConnect connect) {
    String table = tables.resolve(TOPIC).toString();
    if (!tables.resolve(TOPIC).resolve("_delta_log").toFile().exists()) {
      return false;
    }
    Snapshot snapshot = snapshot(table);
    return connect.endOffsets(TOPIC).entrySet().stream().allMatch(end -> snapshot.txnVersion(
        MergeSinkIT.CONNECTOR + ":" + TOPIC + ":" + end.getKey().partition()).orElse(-1) == end.getValue() - 1);
  }

  private static Snapshot snapshot(String table) {
    try {
      return new SnapshotLoader(new LocalStorage()).latest(table);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long optimizeCommits(String table, long latest) {
    SnapshotLoader loader = new SnapshotLoader(new LocalStorage());
    long count = 0;
    for (long version = 0; version <= latest; version++) {
      try {
        for (Action action : loader.readCommit(table, version)) {
          if (action instanceof CommitInfo info && Compactor.OPERATION.equals(info.operation())) {
            count++;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return count;
  }
}
