package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.ChangeStream;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.data.Row;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.CompactionResult;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.protocol.TableFeatures;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table properties through Connect's REST API (docs/design.md, "Table properties"): a property
 * MergeSink cannot honour is reported by {@code validate} under its own name and the connector is
 * not created; one it honours makes a table whose protocol lists the feature and Delta Kernel reads,
 * and with row tracking, whose rows keep their row ids through updates, deletes and compaction.
 */
class TablePropertiesIT {
  private static final String TOPIC = MergeSinkIT.TOPIC;
  private static final String ICEBERG_COMPAT = "table.properties.delta.enableIcebergCompatV2";

  @TempDir Path tables;
  private LocalConnect connect;

  @BeforeEach
  void startCluster() {
    connect = LocalConnect.start(1);
    connect.createTopic(TOPIC, 1);
  }

  @AfterEach
  void stopCluster() {
    connect.close();
  }

  @Test
  void aPropertyMergeSinkCannotHonourIsRefusedByNameAndTheConnectorIsNotCreated() {
    Map<String, String> config = sinkConfig("upsert");
    config.put(ICEBERG_COMPAT, "true");

    ConfigInfos result = connect.cluster().validateConnectorConfig(MergeSinkConnector.class.getSimpleName(), config);

    assertThat(result.errorCount()).as(result.configs().stream().map(ConfigInfo::configValue)
        .filter(value -> !value.errors().isEmpty()).toList().toString()).isEqualTo(1);
    List<String> errors = result.configs().stream().map(ConfigInfo::configValue).filter(value -> value.name().equals(ICEBERG_COMPAT))
        .flatMap(value -> value.errors().stream()).toList();
    assertThat(errors).singleElement().asString().contains(ICEBERG_COMPAT + "=true").contains("Iceberg");
    assertThatThrownBy(() -> connect.cluster().configureConnector(MergeSinkIT.CONNECTOR, config)).hasMessageContaining(ICEBERG_COMPAT);
    assertThat(connect.cluster().connectors()).doesNotContain(MergeSinkIT.CONNECTOR);
  }

  @Test
  void anAppendOnlyAuditTableListsTheFeatureAndIsReadable() throws Exception {
    Map<String, String> config = sinkConfig("append");
    config.put("table.properties.delta.appendOnly", "true");
    assertThat(connect.cluster().validateConnectorConfig(MergeSinkConnector.class.getSimpleName(), config).errorCount()).isZero();
    try (ChangeStream stream = new ChangeStream(connect, TOPIC, 1)) {
      for (long id = 0; id < 20; id++) {
        stream.upsert(id);
      }
      stream.delete(3, false);
      stream.flush();
    }
    connect.startConnector(MergeSinkIT.CONNECTOR, config, 1);
    String table = tables.resolve(TOPIC).toString();
    Await.until("the table to hold offset 20", MergeSinkIT.CATCH_UP, () -> tables.resolve(TOPIC).resolve("_delta_log").toFile().exists()
        && KernelTables.txnVersion(table, MergeSinkIT.CONNECTOR + ":" + TOPIC + ":0").orElse(-1L) == 20L);

    var snapshot = DeltaTable.forPath(new LocalStorage(), table).snapshot();
    assertThat(snapshot.metadata().configuration()).containsEntry("delta.appendOnly", "true");
    assertThat(TableFeatures.supports(snapshot.protocol(), "appendOnly")).as(snapshot.protocol().toString()).isTrue();
    assertThat(KernelTables.readRows(table)).as("every event, the delete included, is a row").hasSize(21);
  }

  @Test
  void aRowTrackingTableKeepsRowIdsThroughUpdatesDeletesAndCompaction() throws Exception {
    Map<String, String> config = sinkConfig("upsert");
    config.put("table.properties.delta.enableRowTracking", "true");
    config.put("compaction.enabled", "false"); // compacted below, once, by the test
    String table = tables.resolve(TOPIC).toString();
    try (ChangeStream stream = new ChangeStream(connect, TOPIC, 1)) {
      for (long id = 0; id < 20; id++) {
        stream.upsert(id);
      }
      stream.flush();
      connect.startConnector(MergeSinkIT.CONNECTOR, config, 1);
      awaitOffset(table, 19); // the offset of the last event
      Map<Object, List<Long>> inserted = rowTracking(table);

      stream.upsert(3);
      stream.delete(5, false);
      stream.flush();
      awaitOffset(table, 21);

      Map<Object, List<Long>> updated = rowTracking(table);
      Map<Object, List<Long>> others = new HashMap<>(inserted);
      List<Long> before = others.remove(3L);
      others.remove(5L);
      assertThat(updated).as("the deleted row is gone, the others kept").hasSize(19).containsAllEntriesOf(others);
      assertThat(updated.get(3L).get(0)).as("the updated row's id").isEqualTo(before.get(0));
      assertThat(updated.get(3L).get(1)).as("the updated row's commit version").isGreaterThan(before.get(1));

      CompactionResult compacted = new Compactor(new LocalStorage(), CompactionOptions.defaults().withMinSmallFiles(2))
          .compact(DeltaTable.forPath(new LocalStorage(), table).snapshot());

      assertThat(compacted).isInstanceOf(CompactionResult.Compacted.class);
      assertThat(rowTracking(table)).isEqualTo(updated);
    }
  }

  private static void awaitOffset(String table, long offset) {
    Await.until("the table to hold offset " + offset, MergeSinkIT.CATCH_UP, () -> Path.of(table, "_delta_log").toFile().exists()
        && KernelTables.txnVersion(table, MergeSinkIT.CONNECTOR + ":" + TOPIC + ":0").orElse(-1L) == offset);
  }

  /** Per key, the row's row id and row commit version as Delta Kernel reads them. */
  private static Map<Object, List<Long>> rowTracking(String table) {
    Map<Object, List<Long>> byKey = new HashMap<>();
    for (Row row : KernelTables.readRowsWithRowTracking(table)) {
      byKey.put(row.get(0), List.of((Long) row.get(row.size() - 2), (Long) row.get(row.size() - 1)));
    }
    return byKey;
  }

  private Map<String, String> sinkConfig(String writeMode) {
    Map<String, String> config = new HashMap<>();
    config.put("name", MergeSinkIT.CONNECTOR);
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topics", TOPIC);
    config.put("table.root", tables.toString());
    config.put("write.mode", writeMode);
    config.put("commit.interval.ms", "500");
    return config;
  }
}
