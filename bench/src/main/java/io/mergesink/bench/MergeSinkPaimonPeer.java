package io.mergesink.bench;

import io.mergesink.core.data.Row;
import io.mergesink.core.table.TableSpec;
import io.mergesink.ingest.config.TableOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.utils.SnapshotManager;

/**
 * MergeSink writing Paimon primary-key tables in the peers suite: upserts as {@code +I}/{@code -D}
 * rows into the LSM tree of each bucket, compacted with deletion vectors at each commit (the
 * table's defaults), in a filesystem catalog on local disk. Checked with Paimon's own reader
 * (deletion vectors applied).
 */
final class MergeSinkPaimonPeer extends MergeSinkFormatPeer {
  /** @param upsertSpec the Delta spec the connector creates for this stream, whose schema and key the preloaded table takes */
  MergeSinkPaimonPeer(Path directory, long commitIntervalMs, TableSpec upsertSpec) {
    super(directory, commitIntervalMs, upsertSpec, "paimon");
  }

  @Override
  public String optionName() {
    return "mergesink-paimon-upsert";
  }

  @Override
  public String label() {
    return "MergeSink Paimon upsert (primary key, deletion vectors), JsonConverter";
  }

  @Override
  public String verify(String topic, E2eWorkload workload, StreamCounts counts) throws IOException {
    Map<String, String> warehouse = Map.of("warehouse", root(topic).toAbsolutePath().toString());
    try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(warehouse)))) {
      Table table = catalog.getTable(Identifier.create(TableOptions.PAIMON_DATABASE_DEFAULT, topic));
      List<String> columns = table.rowType().getFieldNames();
      ReadBuilder read = table.newReadBuilder()
          .withProjection(E2eTables.CHECKED_COLUMNS.stream().mapToInt(columns::indexOf).toArray());
      long start = System.nanoTime();
      List<Row> rows = new ArrayList<>();
      try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
        reader.forEachRemaining(row -> rows.add(Row.of(row.getLong(0), row.getString(1).toString())));
      }
      E2eTables.requireMatches("Paimon table " + table.fullName() + " at snapshot " + table.latestSnapshot().map(Snapshot::id).orElse(0L),
          rows, workload);
      double readSeconds = Seconds.since(start);
      long commits = appendSnapshots(((FileStoreTable) table).snapshotManager());
      return String.format("%,d rows = live keys, last versions; %s", workload.liveCount(),
          TableFootprint.of(root(topic), commits, readSeconds).describe());
    } catch (Catalog.TableNotExistException e) {
      throw new IllegalStateException("the run on " + topic + " left no Paimon table", e);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot read the Paimon table of the run on " + topic, e);
    }
  }

  /** The commits of the table's writers: its {@code APPEND} snapshots (each commit's compaction is a {@code COMPACT} snapshot of its own). */
  private static long appendSnapshots(SnapshotManager snapshots) throws IOException {
    long commits = 0;
    for (Iterator<Snapshot> all = snapshots.snapshots(); all.hasNext(); ) {
      if (all.next().commitKind() == Snapshot.CommitKind.APPEND) {
        commits++;
      }
    }
    return commits;
  }
}
