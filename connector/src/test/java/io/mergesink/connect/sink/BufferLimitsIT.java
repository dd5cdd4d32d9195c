package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full buffer commits from {@code put()}: with the commit timer and the worker's offset flushes
 * (preCommit) both an hour away, the table still fills as records arrive, a buffer at a time.
 */
class BufferLimitsIT {
  private static final String TOPIC = MergeSinkIT.TOPIC;

  @TempDir Path tables;

  @Test
  void fullBufferCommitsWithoutWaitingForTimerOrPreCommit() {
    try (LocalConnect connect = LocalConnect.start(1, Map.of("offset.flush.interval.ms", "3600000"))) {
      connect.createTopic(TOPIC, 1);
      try (ChangeStream stream = new ChangeStream(connect, TOPIC, 1)) {
        for (long id = 0; id < 2_050; id++) {
          stream.upsert(id);
        }
        stream.flush();
        connect.startConnector(MergeSinkIT.CONNECTOR, Map.of(
            "connector.class", MergeSinkConnector.class.getName(),
            "tasks.max", "1",
            "topics", TOPIC,
            "table.root", tables.toString(),
            "commit.interval.ms", "3600000",
            "buffer.max.records", "500"), 1);

        String table = tables.resolve(TOPIC).toString();
        String appId = MergeSinkIT.CONNECTOR + ":" + TOPIC + ":0";
        long committed = Await.until("commits of full buffers", MergeSinkIT.CATCH_UP,
            () -> tables.resolve(TOPIC).resolve("_delta_log").toFile().exists()
                ? KernelTables.txnVersion(table, appId) : Optional.<Long>empty(),
            version -> version.orElse(-1L) >= 1_999).orElseThrow();

        assertThat(committed).as("the last partial buffer waits for the timer or a preCommit").isLessThan(2_049);
        assertThat(KernelTables.readRows(table)).hasSize((int) committed + 1);
      }
    }
  }
}
