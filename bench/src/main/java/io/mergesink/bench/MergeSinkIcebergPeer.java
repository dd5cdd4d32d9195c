package io.mergesink.bench;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.table.TableSpec;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.decode.RecordDecoder;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.format.iceberg.IcebergFormat;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * MergeSink writing Iceberg tables in the peers suite: upserts marked in v3 deletion vectors (the
 * table holds the latest row per key), on the same stream as the Iceberg sink's appends, in a
 * Hadoop catalog on local disk. Checked with Iceberg's generic reader.
 */
final class MergeSinkIcebergPeer implements Peer {
  private static final int PARTITIONS = PeersBenchmark.PARTITIONS;
  private static final String NAMESPACE = "default";

  private final Path directory;
  private final long commitIntervalMs;
  private final TableSpec upsertSpec;

  /** @param upsertSpec the Delta spec the connector creates for this stream, whose schema and key the preloaded table takes */
  MergeSinkIcebergPeer(Path directory, long commitIntervalMs, TableSpec upsertSpec) {
    this.directory = directory;
    this.commitIntervalMs = commitIntervalMs;
    this.upsertSpec = upsertSpec;
  }

  @Override
  public String optionName() {
    return "mergesink-iceberg-upsert";
  }

  @Override
  public String label() {
    return "MergeSink Iceberg upsert (v3 deletion vectors), JsonConverter";
  }

  /** The preloaded keys of the workload, committed by MergeSink's Iceberg writer without positions (the stream starts at 0). */
  @Override
  public void prepare(String topic, E2eWorkload workload) throws IOException {
    if (workload.kind() == E2eWorkload.Kind.INSERT_ONLY) {
      return;
    }
    MergeSinkConfig config = new MergeSinkConfig(connectorConfig(topic, "preload", 1));
    IngestOptions options = config.ingestOptions();
    RecordDecoder decoder = new RecordDecoder(options.decoderOptions());
    List<KafkaPartition> partitions = new ArrayList<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      partitions.add(new KafkaPartition(topic, partition));
    }
    try (IcebergFormat format = new IcebergFormat(options)) {
      FormatTable table = format.create(topic, new NewTable(upsertSpec.schema(), upsertSpec.keyColumns(), List.of(), Map.of(),
          WriteKind.BY_KEY), upsertSpec.keyColumns(), partitions);
      for (int partition = 0; partition < PARTITIONS; partition++) {
        ChangeSet.Builder rows = ChangeSet.builder();
        for (long id = partition; id < workload.insertedKeys(); id += PARTITIONS) {
          if (workload.isLive(id)) {
            rows.upsert(E2eTables.row(decoder, upsertSpec, topic, partition, id, workload.version(id)));
          }
        }
        try {
          table.commit(rows.build());
        } catch (FencedException e) {
          throw new IllegalStateException("the preload records no positions and cannot be fenced", e);
        }
      }
    }
  }

  @Override
  public Map<String, String> connectorConfig(String topic, String connector, int tasks) {
    Map<String, String> config = MergeSinkPeer.config(RecordFormat.JSON, directory.resolve(topic), "upsert", topic, connector, tasks,
        commitIntervalMs);
    config.put(TableOptions.TABLE_FORMAT, "iceberg");
    return config;
  }

  @Override
  public String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException {
    try (HadoopCatalog catalog = new HadoopCatalog(new Configuration(), directory.resolve(topic).toAbsolutePath().toString())) {
      Table table = catalog.loadTable(TableIdentifier.of(NAMESPACE, topic));
      List<Row> rows = new ArrayList<>();
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).select(E2eTables.CHECKED_COLUMNS).build()) {
        for (Record record : records) {
          rows.add(Row.of(record.getField("id"), record.getField("name")));
        }
      }
      E2eTables.requireMatches("Iceberg table " + table.name() + " at sequence number " + table.currentSnapshot().sequenceNumber(),
          rows, workload);
    }
    return String.format("%,d rows = live keys, last versions", workload.liveCount());
  }
}
