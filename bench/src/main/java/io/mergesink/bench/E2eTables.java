package io.mergesink.bench;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.connect.sink.SinkRecords;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.parquet.ParquetWriteOptions;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.PrimaryKeyProperty;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.RecordDecoder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The e2e suite's tables where going through the connector would only cost time: the spec the
 * connector gives a table of the bench's events (read from one it created), a preload of a
 * workload's keys with merge-core, and the check of what a run left in a table.
 */
final class E2eTables {
  static final List<String> CHECKED_COLUMNS = List.of("id", "name");
  private static final int MAX_PROBLEMS_SHOWN = 5;

  private E2eTables() {}

  /**
   * The spec of {@code table} as the connector created it: schema, primary key and Delta
   * configuration (which records the key and deletion vectors) as they are, so a table created
   * from it has the same metadata.
   */
  static TableSpec specOf(DeltaTable table, MergeStrategy strategy) throws IOException {
    Snapshot snapshot = table.snapshot();
    return new TableSpec(snapshot.schema(), PrimaryKeyProperty.of(snapshot.metadata()), strategy, snapshot.metadata().configuration());
  }

  /**
   * Creates {@code table} from {@code spec} and loads every live key of {@code workload} in its
   * current version, as the connector would write the rows of their insert events ({@link
   * RecordDecoder} turns the events into rows): one commit and one data file per partition of
   * {@code topic}, tagged with that partition as the connector tags the files it writes, without
   * txn actions. The connector then starts on a table of {@code workload.liveCount()} rows and no
   * recorded position.
   */
  static void preload(DeltaTable table, TableSpec spec, MergeSinkConfig config, String topic, int partitions, E2eWorkload workload)
      throws IOException {
    table.createIfAbsent(spec);
    RecordDecoder decoder = new RecordDecoder(config.ingestOptions().decoderOptions());
    WriterOptions options = WriterOptions.defaults()
        .withParquet(ParquetWriteOptions.defaults().withCompression(config.parquetCompression().configName()))
        .withTargetFileSizeBytes(config.fileTargetSizeBytes());
    for (int partition = 0; partition < partitions; partition++) {
      ChangeSet.Builder rows = ChangeSet.builder().owners(FileOwners.of(List.of(topic + ":" + partition)));
      for (long id = partition; id < workload.insertedKeys(); id += partitions) {
        if (workload.isLive(id)) {
          rows.upsert(row(decoder, spec, topic, partition, id, workload.version(id)));
        }
      }
      TableWriter writer = table.newAppendWriter(options);
      BenchTables.commit(writer, rows.build());
    }
  }

  /** The row the connector makes of version {@code version} of key {@code id}, checked against {@code spec}. */
  static Row row(RecordDecoder decoder, TableSpec spec, String topic, int partition, long id, int version) {
    ChangeEvent event = decoder.decode(SinkRecords.view(new SinkRecord(topic, partition, DebeziumEvents.KEY, DebeziumEvents.key(id),
        DebeziumEvents.VALUE, DebeziumEvents.upsert("c", id, version), 0)));
    if (!event.valueSchema().fieldNames().equals(spec.schema().fieldNames())) {
      throw new IllegalStateException("the connector decodes the events to columns " + event.valueSchema().fieldNames()
          + " but the table it created has " + spec.schema().fieldNames());
    }
    return event.value();
  }

  /**
   * Checks that {@code table} holds exactly the live keys of {@code workload}, each once and in its
   * last version (by its {@code name} column), and still has {@code schema}.
   *
   * @throws IllegalStateException naming the table and the first differences
   */
  static void requireMatches(DeltaTable table, StructType schema, E2eWorkload workload) throws IOException {
    Snapshot snapshot = table.snapshot();
    if (!snapshot.schema().equals(schema)) {
      throw new IllegalStateException("table " + table.root() + " has schema " + snapshot.schema() + " where it was created with " + schema);
    }
    try (TableScan scan = table.scan(snapshot, CHECKED_COLUMNS)) {
      requireMatches("table " + table.root() + " at version " + snapshot.version(), () -> scan, workload);
    }
  }

  /**
   * Checks that {@code idAndName}, the rows of {@code table} with the columns {@link #CHECKED_COLUMNS},
   * hold exactly the live keys of {@code workload}, each once and in its last version.
   */
  static void requireMatches(String table, Iterable<Row> idAndName, E2eWorkload workload) {
    Problems problems = new Problems();
    BitSet seen = new BitSet();
    long rows = 0;
    for (Row row : idAndName) {
      rows++;
      long id = (Long) row.get(0);
      if (!workload.isLive(id)) {
        problems.add("a row of key " + id + ", which is not live");
      } else if (seen.get(Math.toIntExact(id))) {
        problems.add("key " + id + " twice");
      } else {
        seen.set(Math.toIntExact(id));
        if (!DebeziumEvents.name(id, workload.version(id)).equals(row.get(1))) {
          problems.add("key " + id + " has name " + row.get(1) + " where its last version is " + workload.version(id));
        }
      }
    }
    if (rows != workload.liveCount() || problems.count > 0) {
      throw new IllegalStateException(table + " is wrong: " + rows + " rows where the workload leaves " + workload.liveCount()
          + " live keys; " + problems.count + " other problem(s)" + (problems.count > 0 ? ", first: " + String.join("; ", problems.first) : ""));
    }
  }

  /** The count of problems found and the first few. */
  private static final class Problems {
    private final List<String> first = new ArrayList<>();
    private long count;

    void add(String problem) {
      if (count++ < MAX_PROBLEMS_SHOWN) {
        first.add(problem);
      }
    }
  }
}
