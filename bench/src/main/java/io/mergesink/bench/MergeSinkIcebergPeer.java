package io.mergesink.bench;

import io.mergesink.core.data.Row;
import io.mergesink.core.table.TableSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
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
final class MergeSinkIcebergPeer extends MergeSinkFormatPeer {
  private static final String NAMESPACE = "default";

  /** @param upsertSpec the Delta spec the connector creates for this stream, whose schema and key the preloaded table takes */
  MergeSinkIcebergPeer(Path directory, long commitIntervalMs, TableSpec upsertSpec) {
    super(directory, commitIntervalMs, upsertSpec, "iceberg");
  }

  @Override
  public String optionName() {
    return "mergesink-iceberg-upsert";
  }

  @Override
  public String label() {
    return "MergeSink Iceberg upsert (v3 deletion vectors), JsonConverter";
  }

  @Override
  public String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException {
    try (HadoopCatalog catalog = new HadoopCatalog(new Configuration(), root(topic).toAbsolutePath().toString())) {
      Table table = catalog.loadTable(TableIdentifier.of(NAMESPACE, topic));
      long start = System.nanoTime();
      List<Row> rows = new ArrayList<>();
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).select(E2eTables.CHECKED_COLUMNS).build()) {
        for (Record record : records) {
          rows.add(Row.of(record.getField("id"), record.getField("name")));
        }
      }
      E2eTables.requireMatches("Iceberg table " + table.name() + " at sequence number " + table.currentSnapshot().sequenceNumber(),
          rows, workload);
      double readSeconds = Seconds.since(start);
      long commits = StreamSupport.stream(table.snapshots().spliterator(), false).count();
      return String.format("%,d rows = live keys, last versions; %s", workload.liveCount(),
          TableFootprint.of(root(topic), commits, readSeconds).describe());
    }
  }
}
