package io.mergesink.connect.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.snapshot.SnapshotLoader;
import io.mergesink.core.storage.azure.AzureStorage;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.ingest.config.AzureStoreOptions;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.localconnect.debezium.CustomerEvents;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector with {@code table.root=abfss://...} on Azurite: Connect workers, a third of which
 * joins and then leaves abruptly while tasks commit, write one table; copied from Azurite with the SDK's client
 * and read by Delta Kernel, it equals the source, and every partition's txn version is at its end
 * offset − 1.
 */
class AzureSinkIT {
  private static final Duration CATCH_UP = Duration.ofMinutes(4);
  private static final String CONNECTOR = "azure-sink";
  private static final int PARTITIONS = 4;
  private static final int KEYS = 1_000;

  @Test
  void anAbfssTableRootTakesTheChangeStreamWhileAWorkerLeavesAbruptly(@TempDir Path copyDir) throws Exception {
    String container = TestAzurite.createContainer("connect-sink");
    String root = "abfss://" + container + "@" + TestAzurite.ACCOUNT + ".dfs.core.windows.net/lake";
    String topic = "azure.public.customers";
    String table = root + "/" + topic;
    Random random = new Random(23);
    try (LocalConnect connect = LocalConnect.start(2, Map.of("task.shutdown.graceful.timeout.ms", "1"));
        AzureStorage storage = AzureStorage.create(root, TestAzurite.azureOptions())) {
      connect.createTopic(topic, PARTITIONS);
      try (ChangeStream stream = new ChangeStream(connect, topic, PARTITIONS)) {
        stream.mixedWorkload(KEYS, random);
        stream.flush();
        connect.startConnector(CONNECTOR, sinkConfig(topic, root), 2);
        connect.cluster().addWorker();
        stream.skewedChanges(KEYS, 1_000, random);
        connect.cluster().removeWorker();
        connect.awaitRunning(CONNECTOR, 2);
        stream.skewedChanges(KEYS, 1_000, random);
        stream.flush();

        Map<TopicPartition, Optional<Long>> expected = new HashMap<>();
        connect.endOffsets(topic).forEach((partition, end) -> expected.put(partition, Optional.of(end - 1)));
        Await.until("txn versions " + expected + " in " + table, CATCH_UP, () -> txnVersions(storage, table, topic),
            expected::equals);

        Path copy = TestAzurite.download(table, copyDir);
        // the source's columns; the table also keeps each row's ordering column (upsert.order.by)
        List<Row> rows = KernelTables.readRows(copy.toString()).stream().map(AzureSinkIT::sourceColumns).toList();
        assertThat(rows).as("rows read by Delta Kernel from the table's blobs").hasSize(stream.model().size())
            .containsExactlyInAnyOrderElementsOf(stream.model().values());
        connect.deleteConnector(CONNECTOR);
      }
    }
  }

  private static Row sourceColumns(Row row) {
    Object[] values = new Object[CustomerEvents.COLUMNS.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(i);
    }
    return Row.of(values);
  }

  private static Map<String, String> sinkConfig(String topic, String root) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", "2");
    config.put("topics", topic);
    config.put("table.root", root);
    config.put("commit.interval.ms", "500");
    config.put(AzureStoreOptions.ENDPOINT, TestAzurite.azurite().accountEndpoint().toString());
    config.put(AzureStoreOptions.ACCOUNT_KEY, TestAzurite.ACCOUNT_KEY);
    return config;
  }

  /** Each partition's txn version in the table's latest snapshot, read through MergeSink's Azure storage. */
  private static Map<TopicPartition, Optional<Long>> txnVersions(AzureStorage storage, String table, String topic) {
    Map<TopicPartition, Optional<Long>> versions = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      Optional<Long> version;
      try {
        SetTransaction txn = new SnapshotLoader(storage).latest(table).transactions().get(CONNECTOR + ":" + topic + ":" + partition);
        version = txn == null ? Optional.empty() : Optional.of(txn.version());
      } catch (IOException | RuntimeException e) {
        version = Optional.empty(); // no table yet
      }
      versions.put(new TopicPartition(topic, partition), version);
    }
    return versions;
  }
}
