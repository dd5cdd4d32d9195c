package io.mergesink.ingest.format.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeInto;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.PrimaryKeyProperty;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.core.writer.MergingTableWriter;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.maintenance.CompactionRun;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * One Delta table as a task writes it: the snapshot it follows, and a merge-core {@link TableWriter}
 * opened for the task's current partitions at the first call that needs one. Positions are the
 * {@code txn} versions of the snapshot; a commit carries them as {@code txn} actions, checked
 * against the versions the change set expects.
 */
final class DeltaFormatTable implements FormatTable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Storage storage;
  private final DeltaTable table;
  private final Function<Collection<KafkaPartition>, TaskPartitions> taskPartitionsFor;
  private final CompactionOptions compaction;
  private final WriteKind writeKind;
  private final List<String> writerKey;
  private TaskPartitions task;
  /** The owners of change sets' rows, by the positions they carry (docs/design.md, "File ownership"). */
  private final Map<Set<String>, FileOwners> rowOwners = new HashMap<>();
  private Snapshot snapshot;
  private TableWriter writer;
  private Generated generated;

  /**
   * @param taskPartitionsFor the task holding the given partitions
   * @param writeKind whether the table takes a keyed writer or an append writer
   * @param writerKey the key for a table that records none; a keyed writer checks a recorded one against it (empty: the
   *     recorded key)
   */
  DeltaFormatTable(Storage storage, DeltaTable table, Snapshot snapshot,
      Function<Collection<KafkaPartition>, TaskPartitions> taskPartitionsFor, Collection<KafkaPartition> partitions,
      CompactionOptions compaction, WriteKind writeKind, List<String> writerKey) {
    this.storage = storage;
    this.table = table;
    this.snapshot = snapshot;
    this.taskPartitionsFor = taskPartitionsFor;
    this.task = taskPartitionsFor.apply(partitions);
    this.compaction = compaction;
    this.writeKind = writeKind;
    this.writerKey = List.copyOf(writerKey);
  }

  @Override
  public String location() {
    return table.root();
  }

  @Override
  public long version() {
    return snapshot.version();
  }

  @Override
  public StructType schema() {
    return snapshot.schema();
  }

  @Override
  public List<String> partitionColumns() {
    return snapshot.metadata().partitionColumns();
  }

  @Override
  public Map<String, String> properties() {
    return snapshot.metadata().configuration();
  }

  @Override
  public List<String> recordedKey() {
    return PrimaryKeyProperty.of(snapshot.metadata());
  }

  @Override
  public Set<String> positionIds() {
    return snapshot.txnVersions().keySet();
  }

  @Override
  public OptionalLong position(String id) {
    return snapshot.txnVersion(id);
  }

  @Override
  public Optional<String> commitTag(long version, String name) throws IOException {
    return table.commitInfo(version).map(info -> info.tag(name));
  }

  @Override
  public boolean rewritesOnly(long version) throws IOException {
    return table.commitInfo(version).map(info -> Compactor.OPERATION.equals(info.values().get("operation"))).orElse(false);
  }

  @Override
  public void refresh() throws IOException {
    snapshot = table.snapshot();
  }

  /** Without a writer, the latest state, which one would open on: its key index is not loaded for it. */
  @Override
  public void followWriter() throws IOException {
    snapshot = writer == null ? table.snapshotAfter(snapshot) : writer.snapshot();
  }

  @Override
  public void addColumns(List<StructField> columns) throws IOException {
    snapshot = table.addColumns(columns);
    followSchemaChange();
  }

  @Override
  public void widenColumns(Map<String, DataType> types) throws IOException {
    snapshot = table.widenColumns(types);
    followSchemaChange();
  }

  @Override
  public void makeNullable(List<String> columns) throws IOException {
    snapshot = table.makeNullable(columns);
    followSchemaChange();
  }

  @Override
  public void changeProperties(UnaryOperator<Map<String, String>> change) throws IOException {
    snapshot = table.changeConfiguration(change);
  }

  /** Delta generated columns, computed once per schema. */
  @Override
  public Row complete(Row row) {
    if (generated == null || generated.schema() != snapshot.schema()) {
      generated = new Generated(snapshot.schema(), GeneratedColumns.of(snapshot.schema()));
    }
    return generated.columns().fill(row);
  }

  /** Only the files whose {@code minValues}/{@code maxValues} statistics allow the values are read. */
  @Override
  public RowScan scan(List<String> columns, Map<String, Long> equalTo) {
    LogicalFileReader reader = LogicalFileReader.of(storage, snapshot, columns);
    List<Map.Entry<StructField, Long>> bounds = new ArrayList<>();
    equalTo.forEach((column, value) -> bounds.add(Map.entry(dataField(reader, columns, column), value)));
    Predicate<AddFile> files = file -> bounds.stream().allMatch(bound -> mayHold(file, bound.getKey(), bound.getValue()));
    TableScan scan = TableScan.of(storage, snapshot, reader, files);
    return new RowScan() {
      @Override
      public boolean hasNext() {
        return scan.hasNext();
      }

      @Override
      public Row next() {
        return scan.next();
      }

      @Override
      public void close() throws IOException {
        scan.close();
      }
    };
  }

  @Override
  public boolean decidesAgainstRows() {
    return true;
  }

  @Override
  public LiveRows liveRows() throws IOException {
    if (!(writer() instanceof MergingTableWriter merging)) {
      throw new IllegalStateException("table " + table.root() + " has no key index: it is written by "
          + writer().getClass().getSimpleName());
    }
    return merging.liveRows();
  }

  @Override
  public MergeActions decide(MergeSpec spec, List<Row> source) throws IOException {
    return MergeInto.on(writer()).decide(spec, source);
  }

  @Override
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    TableWriter committing = writer == null && positionsOnly(changes) ? positionsWriter() : writer();
    FileOwners owners = rowOwners.computeIfAbsent(changes.txns().keySet(), appIds -> PartitionOwners.ofChanges(task.partitions(), appIds));
    CommitResult result = committing.commit(changes.withOwners(owners));
    snapshot = committing.snapshot();
    return result;
  }

  /**
   * A compaction of the files of this task's partitions (docs/design.md, "Maintenance"): it rewrites
   * files whose deletion vectors hide too many rows and bin-packs small files, within the options'
   * budget, in a commit of its own. Prepared here, on the snapshot the writer holds at this call, to run
   * anywhere: it shares nothing with the writer.
   */
  @Override
  public Optional<CompactionRun> compaction() {
    if (writer == null) {
      return Optional.empty();
    }
    Snapshot current = writer.snapshot();
    WriterOptions writerOptions = task.writerOptions();
    CompactionOptions scoped = compaction.withScope(writerOptions.scope().files(current)).withParquet(writerOptions.parquet());
    return Optional.of(() -> new Compactor(storage, scoped).compact(current));
  }

  /** The writer reads the compaction, so that its key index points into the new files. */
  @Override
  public void compacted() throws IOException {
    if (writer != null) {
      snapshot = writer.refresh();
    }
  }

  @Override
  public long keyIndexHeapBytes() {
    return writer instanceof MergingTableWriter merging ? merging.indexEstimatedHeapBytes() : 0;
  }

  /** The writer goes with its index; the next commit opens one on the snapshot this table follows. */
  @Override
  public void dropKeyIndex() {
    writer = null;
  }

  /** File tags and key-index scope follow the partitions, so the writer (and its key index) is dropped. */
  @Override
  public boolean reassign(Collection<KafkaPartition> partitions) throws IOException {
    task = taskPartitionsFor.apply(partitions);
    rowOwners.clear();
    writer = null;
    try {
      snapshot = table.snapshot();
      return true;
    } catch (TableNotFoundException e) {
      return false;
    }
  }

  /** A change set that moves positions and reads and changes no row: it needs no key index. */
  private static boolean positionsOnly(ChangeSet changes) {
    return !changes.hasRowChanges() && changes.decidedFrom().isEmpty();
  }

  /**
   * A writer of positions alone, for a table whose key index is not loaded (dropped to free the heap,
   * {@code index.memory.max.bytes}): it commits the txns without reading the table's keys, and is not kept.
   */
  private TableWriter positionsWriter() throws IOException {
    return table.newAppendWriter(task.writerOptions(), table.snapshotAfter(snapshot));
  }

  private TableWriter writer() throws IOException {
    if (writer == null) {
      // the snapshot this table follows is brought up to date rather than read again: a writer opens on the latest one
      Snapshot latest = table.snapshotAfter(snapshot);
      writer = writeKind == WriteKind.APPEND ? table.newAppendWriter(task.writerOptions(), latest)
          : table.newWriter(task.writerOptions(), writerKey, latest);
      snapshot = writer.snapshot();
    }
    return writer;
  }

  /** The writer (if open) reads a schema change, so that its rows are written in the new schema. */
  private void followSchemaChange() throws IOException {
    if (writer != null) {
      snapshot = writer.refresh();
    }
  }

  /** The reader's data field of {@code column}: null for a partition column, which has no statistics. */
  private static StructField dataField(LogicalFileReader reader, List<String> columns, String column) {
    int index = columns.indexOf(column);
    if (index < 0) {
      throw new IllegalArgumentException("column '" + column + "' is bounded but not read: " + columns);
    }
    return reader.dataField(index);
  }

  /** Whether {@code file}'s statistics of {@code column} (null: a partition column) allow {@code value}. */
  private static boolean mayHold(AddFile file, StructField column, long value) {
    if (column == null || file.stats() == null) {
      return true;
    }
    try {
      JsonNode stats = JSON.readTree(file.stats());
      JsonNode min = stats.path("minValues").path(column.name());
      JsonNode max = stats.path("maxValues").path(column.name());
      return !min.isIntegralNumber() || !max.isIntegralNumber() || (min.longValue() <= value && value <= max.longValue());
    } catch (IOException e) {
      return true;
    }
  }

  /** The generated columns of one schema. */
  private record Generated(StructType schema, GeneratedColumns columns) {}
}
