package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.RowValidator;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.maintenance.Compactor;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeInto;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
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
import io.mergesink.ingest.align.RowAligner;
import io.mergesink.ingest.align.SchemaMismatchException;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.maintenance.CompactionRun;
import io.mergesink.ingest.options.SchemaEvolution;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table as a task writes it: turns decoded events into rows of the table's schema (adding
 * columns when the table allows it), and commits change sets through a {@link TableWriter} opened
 * for the task's current partitions.
 */
public final class TableSink {
  private static final Logger LOG = LoggerFactory.getLogger(TableSink.class);
  private final String name;
  private final DeltaTable table;
  private final SchemaEvolution evolution;
  private final List<String> configuredKey;
  private final AlignerCache valueAligners;
  private final AlignerCache keyAligners;
  private final Storage storage;
  private final TableKind kind;
  private final List<String> keyColumns;
  private WriterOptions writerOptions;
  private SchemaDerived derived;
  private TableWriter writer;
  private Snapshot snapshot;

  /**
   * @param configuredKey {@code primary.key.fields}, for tables that record no key
   * @param kind keyed or append: how events become rows of this table
   */
  TableSink(String name, Storage storage, DeltaTable table, Snapshot snapshot, SchemaEvolution evolution,
      List<String> configuredKey, TableKind kind, WriterOptions writerOptions) {
    this.name = name;
    this.valueAligners = new AlignerCache(name);
    this.keyAligners = new AlignerCache(name);
    this.storage = storage;
    this.table = table;
    this.snapshot = snapshot;
    this.evolution = evolution;
    this.configuredKey = configuredKey;
    this.kind = kind;
    this.writerOptions = writerOptions;
    List<String> recordedKey = PrimaryKeyProperty.of(snapshot.metadata());
    this.keyColumns = kind.keyColumns(recordedKey, configuredKey);
  }

  public String name() {
    return name;
  }

  /** The txn app ids of the latest snapshot this sink read or wrote. */
  public Set<String> txnAppIds() {
    return snapshot.txnVersions().keySet();
  }

  /**
   * Records in the table that the keys of {@code topic} may be in the files of any of its
   * partitions (docs/design.md, "Topics that grow"), in a metadata commit.
   *
   * @return whether the table did not say so yet (two tasks racing may both see that)
   */
  boolean lookUpTopicInEveryPartition(String topic) throws IOException {
    snapshot = table.snapshot();
    if (PartitionOwners.tableScopeTopics(snapshot.metadata()).contains(topic)) {
      return false;
    }
    snapshot = table.changeConfiguration(configuration -> PartitionOwners.withTableScopeTopic(configuration, topic));
    return true;
  }

  /**
   * The topics whose keys the table says may be in the files of any of their partitions (they grew;
   * {@value PartitionOwners#TABLE_SCOPE_TOPICS}), as of the snapshot the writer holds (opened if
   * needed), which this sink follows from then on; null when the table names none.
   */
  String movedKeyTopics() throws IOException {
    snapshot = writer().snapshot();
    return snapshot.metadata().configuration().get(PartitionOwners.TABLE_SCOPE_TOPICS);
  }

  /** Adds {@code column}, one the sink keeps itself, unless the table has it (whatever {@code schema.evolution} says). */
  void addOwnColumn(StructField column, String why) throws IOException {
    if (snapshot.schema().indexOf(column.name()) >= 0) {
      return;
    }
    table.addColumns(List.of(column));
    snapshot = writer().refresh();
    LOG.info("Table {}: added column {} at version {}: {}", name, column.name(), snapshot.version(), why);
  }

  /** The version of the latest snapshot this sink read or wrote. */
  long version() {
    return snapshot.version();
  }

  /** The {@code commitInfo} of the table's commit of {@code version}, if it has one and it is still in the log. */
  Optional<CommitInfo> commitInfo(long version) throws IOException {
    return table.commitInfo(version);
  }

  /** The txn version of {@code appId} in the latest snapshot this sink read or wrote. */
  public OptionalLong recordedOffset(String appId) {
    return snapshot.txnVersion(appId);
  }

  /**
   * The event with its key and row in this table's schema, ready to buffer ({@link TableKind#prepare}).
   *
   * @throws SchemaMismatchException the event does not fit the table (and cannot be made to fit)
   */
  public ChangeEvent prepare(ChangeEvent event) throws IOException {
    return kind.prepare(this, event);
  }

  /**
   * Whether {@code event} leaves this table as it is ({@link TableKind#changesNothing}): the record
   * before it in its partition is at {@code previousOffset}, which the table accounts for when
   * {@code previousInTable}.
   */
  public boolean changesNothing(ChangeEvent event, long previousOffset, boolean previousInTable) throws IOException {
    return kind.changesNothing(this, event, previousOffset, previousInTable);
  }

  /**
   * A reader of {@code columns} of the latest snapshot this sink read or wrote.
   *
   * @throws IllegalArgumentException a column is not in the table
   */
  LogicalFileReader reader(List<String> columns) {
    return LogicalFileReader.of(storage, snapshot, columns);
  }

  /** The live rows {@code reader} (of {@link #reader}) reads from the files {@code files} accepts; the caller closes them. */
  TableScan scan(LogicalFileReader reader, Predicate<AddFile> files) {
    return TableScan.of(storage, snapshot, reader, files);
  }

  /** The change set of one commit of this table ({@link TableKind#assemble}). */
  public ChangeSet changeSet(List<TableChanges> changes, Map<String, TxnChange> txns) throws IOException {
    return kind.assemble(this, changes, txns);
  }

  /**
   * What {@code spec} does with {@code source} against the table the writer holds, opening the
   * writer first if needed; nothing is committed ({@link MergeInto#decide}).
   */
  MergeActions decide(MergeSpec spec, List<Row> source) throws IOException {
    return MergeInto.on(writer()).decide(spec, source);
  }

  /**
   * The live rows of this keyed table by key, as of the writer's snapshot (the writer is opened
   * if needed); valid until the next commit.
   */
  LiveRows liveRows() throws IOException {
    if (!(writer() instanceof MergingTableWriter merging)) {
      throw new IllegalStateException("table " + name + " has no key index: it is written by " + writer().getClass().getSimpleName());
    }
    return merging.liveRows();
  }

  /** The table's properties, as of the latest snapshot this sink read or wrote. */
  Map<String, String> properties() {
    return snapshot.metadata().configuration();
  }

  /** The table schema rows are prepared and re-fitted for: that of the latest snapshot this sink read or wrote. */
  public StructType schema() {
    return snapshot.schema();
  }

  /**
   * Re-fits a buffered row made for an older schema of this table (columns were added since):
   * the new columns read as null.
   */
  public Row refit(StructType rowSchema, Row row) {
    return rowSchema.equals(snapshot.schema()) ? row : valueAligners.get(rowSchema, snapshot.schema()).align(row);
  }

  /**
   * Commits {@code changes}, opening the writer first if needed.
   *
   * @throws FencedException a txn of the change set does not hold the version it expects: another
   *     task took that partition over
   */
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    TableWriter writer = writer();
    CommitResult result = writer.commit(changes);
    snapshot = writer.snapshot();
    kind.landed(this);
    return result;
  }

  /**
   * A compaction of the files of this task's partitions (docs/design.md, "Maintenance"): it rewrites
   * files whose deletion vectors hide too many rows and bin-packs small files, within the options'
   * budget, in a commit of its own. Prepared here, on the snapshot the writer holds now, to run
   * anywhere: it shares nothing with the writer.
   *
   * @return empty before the first commit of this assignment (no writer, no scope yet)
   */
  public Optional<CompactionRun> compaction(CompactionOptions options) {
    if (writer == null) {
      return Optional.empty();
    }
    Snapshot current = writer.snapshot();
    CompactionOptions scoped = options.withScope(writerOptions.scope().files(current)).withParquet(writerOptions.parquet());
    return Optional.of(() -> new Compactor(storage, scoped).compact(current));
  }

  /** A compaction of the table committed: the writer reads it, so its key index points into the new files. */
  public void compacted() throws IOException {
    if (writer != null) {
      snapshot = writer.refresh();
    }
  }

  /**
   * Drops the writer (and its key index): the task's partitions changed, so file tags and index
   * scope do too. The next commit opens a writer with {@code options}.
   */
  public void reassign(WriterOptions options) throws IOException {
    writerOptions = options;
    writer = null;
    snapshot = table.snapshot();
  }

  private TableWriter writer() throws IOException {
    if (writer == null) {
      // the key for a table that records none; the writer checks a recorded one against it
      writer = table.newWriter(writerOptions, kind.keyColumns(List.of(), configuredKey));
      snapshot = writer.snapshot();
    }
    return writer;
  }

  /**
   * {@code row} of {@code schema} in the table's schema, with generated columns filled; adds or
   * widens columns first when the row needs it and {@code schema.evolution} allows it.
   *
   * @throws SchemaMismatchException the row does not fit and the table may not change for it
   */
  Row fit(StructType schema, Row row) throws IOException {
    RowAligner aligner = valueAligners.get(schema, snapshot.schema());
    if (aligner.hasExtraColumns() || (evolution == SchemaEvolution.WIDEN_TYPES && !aligner.mismatchedColumns().isEmpty())) {
      aligner = evolve(schema, aligner);
    }
    Row aligned = derived().generated().fill(aligner.align(row));
    String problem = RowValidator.problem(snapshot.schema(), aligned, true);
    if (problem != null) {
      throw new SchemaMismatchException("table " + name + ": " + problem);
    }
    return aligned;
  }

  /**
   * Adds the columns of {@code schema} the table lacks and, with {@code schema.evolution=widen-types},
   * widens the columns whose type grew (docs/design.md, "Schema evolution"); returns the aligner for
   * the new table schema.
   *
   * @throws SchemaMismatchException the table may not change (schema.evolution=none), or a type
   *     cannot be widened (the message names the column)
   */
  private RowAligner evolve(StructType schema, RowAligner aligner) throws IOException {
    if (evolution == SchemaEvolution.NONE) {
      throw new SchemaMismatchException("table " + name + " has no column(s) " + names(aligner) + " of the record"
          + " (schema.evolution=none)");
    }
    if (aligner.hasExtraColumns()) {
      snapshot = table.addColumns(aligner.extraColumns());
    }
    if (evolution == SchemaEvolution.WIDEN_TYPES && !aligner.mismatchedColumns().isEmpty()) {
      Map<String, DataType> widened = new LinkedHashMap<>();
      for (StructField column : aligner.mismatchedColumns()) {
        if (keyColumns.contains(column.name())) {
          // buffered changes of the old key type would not coalesce with those of the new one
          throw new SchemaMismatchException("table " + name + ": primary key column '" + column.name() + "' is "
              + snapshot.schema().field(column.name()).orElseThrow().type() + " but the record has " + column.type()
              + "; MergeSink does not widen primary key columns (stop the connector, widen the column with ALTER TABLE ... ALTER"
              + " COLUMN ... TYPE in Spark, and start it again)");
        }
        widened.put(column.name(), column.type());
      }
      try {
        snapshot = table.widenColumns(widened);
      } catch (IllegalArgumentException e) {
        throw new SchemaMismatchException(e.getMessage() + " (schema.evolution=widen-types)");
      }
      LOG.info("Table {}: widened column(s) {} at version {}", name, widened, snapshot.version());
    }
    if (writer != null) {
      snapshot = writer.refresh();
    }
    return valueAligners.get(schema, snapshot.schema());
  }

  /**
   * Makes the NOT NULL columns of this append table that a row of {@code schema} has no value for
   * nullable (docs/design.md, "Append tables"): the row of a delete may hold only its key. Tables
   * made before append tables kept their non-key columns nullable have such columns.
   *
   * @throws SchemaMismatchException the table has such columns and may not change (schema.evolution=none)
   */
  void makeRoomFor(StructType schema, ChangeEvent event) throws IOException {
    if (valueAligners.has(schema, snapshot.schema())) {
      return; // an aligner exists only for rows that fit the current schema
    }
    List<String> missing = new ArrayList<>();
    for (StructField column : snapshot.schema().fields()) {
      if (!column.nullable() && schema.indexOf(column.name()) < 0) {
        missing.add(column.name());
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    if (evolution == SchemaEvolution.NONE) {
      throw new SchemaMismatchException("append table " + name + ": column(s) " + missing + " are NOT NULL but the row of this '"
          + event.sourceOp() + "' event has no value for them (a delete holds its key when it has no full before image); make them "
          + "nullable, or set schema.evolution=add-columns to let MergeSink do it");
    }
    snapshot = table.makeNullable(missing);
    if (writer != null) {
      snapshot = writer.refresh();
    }
    LOG.info("Append table {}: made column(s) {} nullable at version {}, so that rows of deletes without them fit", name, missing,
        snapshot.version());
  }

  /** A record key of {@code schema} as a key of this table. */
  Row key(StructType schema, Row key) {
    return keyAligners.get(schema, keySchema()).align(key);
  }

  /** The primary key columns with their current types (another writer may widen those, never change the columns). */
  StructType keySchema() {
    return derived().keySchema();
  }

  /** What rows of the current table schema need, computed once per schema. */
  private SchemaDerived derived() {
    if (derived == null || derived.schema() != snapshot.schema()) {
      derived = new SchemaDerived(snapshot.schema(), snapshot.schema().select(keyColumns), GeneratedColumns.of(snapshot.schema()));
    }
    return derived;
  }

  /** The key columns and generated columns of {@code schema}. */
  private record SchemaDerived(StructType schema, StructType keySchema, GeneratedColumns generated) {}

  private static List<String> names(RowAligner aligner) {
    return aligner.extraColumns().stream().map(field -> field.name()).toList();
  }
}
