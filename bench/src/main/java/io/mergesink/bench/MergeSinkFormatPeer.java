package io.mergesink.bench;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.table.TableSpec;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.decode.RecordDecoder;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.TableFormats;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * MergeSink upserting into a table format other than Delta in the peers suite, on the same stream
 * as the other sinks: the table under its own root, preloaded through the format's writer, and
 * checked with the format's own reader ({@link #verify}).
 */
abstract class MergeSinkFormatPeer implements Peer {
  private static final int PARTITIONS = PeersBenchmark.PARTITIONS;

  private final Path directory;
  private final long commitIntervalMs;
  private final TableSpec upsertSpec;
  private final String tableFormat;

  /**
   * @param upsertSpec the Delta spec the connector creates for this stream, whose schema and key the preloaded table takes
   * @param tableFormat the connector's {@code table.format}
   */
  MergeSinkFormatPeer(Path directory, long commitIntervalMs, TableSpec upsertSpec, String tableFormat) {
    this.directory = directory;
    this.commitIntervalMs = commitIntervalMs;
    this.upsertSpec = upsertSpec;
    this.tableFormat = tableFormat;
  }

  /** The table root of the run on {@code topic}: the warehouse of the format's catalog. */
  final Path root(String topic) {
    return directory.resolve(topic);
  }

  /** The preloaded keys of the workload, committed by MergeSink's writer of the format without positions (the stream starts at 0). */
  @Override
  public final void prepare(String topic, E2eWorkload workload) throws IOException {
    if (workload.kind() == E2eWorkload.Kind.INSERT_ONLY) {
      return;
    }
    IngestOptions options = new MergeSinkConfig(connectorConfig(topic, "preload", 1)).ingestOptions();
    RecordDecoder decoder = new RecordDecoder(options.decoderOptions());
    List<KafkaPartition> partitions = new ArrayList<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      partitions.add(new KafkaPartition(topic, partition));
    }
    try (TableFormat format = TableFormats.of(options)) {
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
  public final Map<String, String> connectorConfig(String topic, String connector, int tasks) {
    Map<String, String> config = MergeSinkPeer.config(RecordFormat.JSON, root(topic), "upsert", topic, connector, tasks,
        commitIntervalMs);
    config.put(TableOptions.TABLE_FORMAT, tableFormat);
    return config;
  }
}
