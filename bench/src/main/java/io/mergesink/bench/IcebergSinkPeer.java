package io.mergesink.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.localconnect.LocalConnect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Apache Iceberg Kafka Connect sink (1.12.0) appending to a table of a Hadoop catalog on local
 * disk. It appends only (Iceberg 1.12's sink has no upsert mode), so it stands against MergeSink's
 * {@code write.mode=append}. Debezium envelopes go through Iceberg's own {@code DebeziumTransform}
 * (the row plus a {@code _cdc} struct of operation, time and Kafka position, as MergeSink's append
 * rows carry {@code _op}, {@code _ts_ms} and {@code _kafka_*}); the table is created by the sink
 * ({@code auto-create}), Parquet with zstd (Iceberg's default, as MergeSink's). Its coordinator
 * commits every {@code iceberg.control.commit.interval-ms}, set to MergeSink's commit interval
 * (its default is 5 minutes). Its tasks commit the connector's Kafka offsets together with the
 * announcement of their data files, before the coordinator's Iceberg commit makes the rows visible,
 * so a run is caught up when the offsets are committed and the current snapshot holds every row.
 */
final class IcebergSinkPeer implements Peer {
  private static final String CONNECTOR_CLASS = "org.apache.iceberg.connect.IcebergSinkConnector";
  private static final String NAMESPACE = "bench";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern METADATA_FILE = Pattern.compile("v(\\d+)\\.metadata\\.json");

  private final LocalConnect connect;
  private final Path warehouse;
  private final RecordFormat format;
  private final long commitIntervalMs;

  IcebergSinkPeer(LocalConnect connect, Path warehouse, RecordFormat format, long commitIntervalMs) {
    this.connect = connect;
    this.warehouse = warehouse;
    this.format = format;
    this.commitIntervalMs = commitIntervalMs;
  }

  @Override
  public String optionName() {
    return "iceberg";
  }

  @Override
  public String label() {
    return "Iceberg sink append (Hadoop catalog), JsonConverter";
  }

  @Override
  public void prepare(String topic, E2eWorkload workload) {
    connect.createTopic(controlTopic(topic), 1);
  }

  @Override
  public Map<String, String> connectorConfig(String topic, String connector, int tasks) {
    Map<String, String> config = Peer.baseConfig(format, CONNECTOR_CLASS, tasks, topic);
    config.put("iceberg.tables", NAMESPACE + "." + Peer.tableName(topic));
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.catalog.type", "hadoop");
    config.put("iceberg.catalog.warehouse", warehouse.toUri().toString());
    config.put("iceberg.control.topic", controlTopic(topic));
    config.put("iceberg.control.commit.interval-ms", Long.toString(commitIntervalMs));
    config.put("iceberg.kafka.bootstrap.servers", connect.bootstrapServers());
    config.put("transforms", "debezium");
    config.put("transforms.debezium.type", "org.apache.iceberg.connect.transforms.DebeziumTransform");
    return config;
  }

  /** Whether the table's current snapshot holds a row for every change event produced. */
  @Override
  public boolean visible(String topic, StreamCounts counts) throws IOException {
    return rows(topic) >= counts.changeEvents();
  }

  /**
   * Counts the rows of the table's current snapshot ({@code total-records} of its summary, read
   * from the Hadoop catalog's metadata files): every change event is appended; tombstones carry no
   * row and are skipped by the sink.
   */
  @Override
  public String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException {
    long rows = rows(topic);
    if (rows != counts.changeEvents()) {
      throw new IllegalStateException("Iceberg table " + Peer.tableName(topic) + " has " + rows + " rows where "
          + counts.changeEvents() + " change events (and " + counts.tombstones() + " tombstones) were produced");
    }
    return String.format("%,d rows = change events", rows);
  }

  /** {@code total-records} of the current snapshot; 0 before the first. */
  private long rows(String topic) throws IOException {
    Path metadata = warehouse.resolve(NAMESPACE).resolve(Peer.tableName(topic)).resolve("metadata");
    if (!Files.isDirectory(metadata)) {
      return 0;
    }
    // the newest vN.metadata.json: the Hadoop catalog's version-hint.text is written after it, best effort
    long version = -1;
    try (Stream<Path> files = Files.list(metadata)) {
      for (Path file : files.toList()) {
        Matcher matcher = METADATA_FILE.matcher(file.getFileName().toString());
        if (matcher.matches()) {
          version = Math.max(version, Long.parseLong(matcher.group(1)));
        }
      }
    }
    JsonNode table = JSON.readTree(metadata.resolve("v" + version + ".metadata.json").toFile());
    long current = table.path("current-snapshot-id").asLong();
    long rows = 0;
    for (JsonNode snapshot : table.path("snapshots")) {
      if (snapshot.path("snapshot-id").asLong() == current) {
        rows = snapshot.path("summary").path("total-records").asLong(0);
      }
    }
    return rows;
  }

  private static String controlTopic(String topic) {
    return "control-" + topic;
  }
}
