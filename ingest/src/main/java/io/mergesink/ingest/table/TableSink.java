package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.RowValidator;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.align.RowAligner;
import io.mergesink.ingest.align.SchemaMismatchException;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.catalog.CatalogTable;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import io.mergesink.ingest.format.TableScopeTopics;
import io.mergesink.ingest.maintenance.CompactionRun;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table as a task writes it: turns decoded events into rows of the table's schema (adding
 * columns when the table allows it), and commits change sets with the positions they account for
 * through its {@link FormatTable}, whatever the table format.
 *
 * <p>The commits of one flush run on several threads, each table's on one. The {@link TableKind} is
 * shared by every table and keeps what a decision found until it lands, so a change set is decided
 * ({@link TableKind#assemble}) and landed ({@link TableKind#landed}) under the kind's lock; the
 * writing of data files and the log commit run outside it.
 */
public final class TableSink {
  private static final Logger LOG = LoggerFactory.getLogger(TableSink.class);
  /**
   * The commit tag naming, comma-separated, the source transactions of which a commit holds a piece
   * and not the whole (each larger than a partition's buffer).
   */
  public static final String TRANSACTION_PIECES_TAG = "mergesink.transactionPieces";
  private final String name;
  private final FormatTable table;
  private final SchemaEvolution evolution;
  private final AlignerCache valueAligners;
  private final AlignerCache keyAligners;
  private final TableKind kind;
  private final List<String> keyColumns;
  private SchemaDerived derived;

  /**
   * @param configuredKey {@code primary.key.fields}, for tables that record no key
   * @param kind keyed, append or history: how events become rows of this table
   */
  TableSink(String name, FormatTable table, SchemaEvolution evolution, List<String> configuredKey, TableKind kind) {
    this.name = name;
    this.valueAligners = new AlignerCache(name);
    this.keyAligners = new AlignerCache(name);
    this.table = table;
    this.evolution = evolution;
    this.kind = kind;
    this.keyColumns = kind.keyColumns(table.recordedKey(), configuredKey);
  }

  public String name() {
    return name;
  }

  /** The txn app ids of the positions the table records, as of the latest state this sink read or wrote. */
  public Set<String> txnAppIds() {
    return table.positionIds();
  }

  /**
   * Records in the table that the keys of {@code topic} may be in the files of any of its
   * partitions (docs/design.md, "Topics that grow"), in a metadata commit.
   *
   * @return whether the table did not say so yet (two tasks racing may both see that)
   */
  boolean lookUpTopicInEveryPartition(String topic) throws IOException {
    table.refresh();
    if (TableScopeTopics.of(table.properties()).contains(topic)) {
      return false;
    }
    table.changeProperties(properties -> TableScopeTopics.with(properties, topic));
    return true;
  }

  /**
   * The topics whose keys the table says may be in the files of any of their partitions (they grew;
   * {@value TableScopeTopics#PROPERTY}), as of the state the writer holds (opened if needed),
   * which this sink follows from then on; null when the table names none.
   */
  String movedKeyTopics() throws IOException {
    table.followWriter();
    return table.properties().get(TableScopeTopics.PROPERTY);
  }

  /** Adds {@code column}, one the sink keeps itself, unless the table has it (whatever {@code schema.evolution} says). */
  void addOwnColumn(StructField column, String why) throws IOException {
    if (table.schema().indexOf(column.name()) >= 0) {
      return;
    }
    table.followWriter();
    table.addColumns(List.of(column));
    LOG.info("Table {}: added column {} at version {}: {}", name, column.name(), table.version(), why);
  }

  /** The version of the latest state this sink read or wrote. */
  long version() {
    return table.version();
  }

  /** The tag {@code name} of the table's commit of {@code version}, if it has one and the table still knows that commit. */
  Optional<String> commitTag(long version, String name) throws IOException {
    return table.commitTag(version, name);
  }

  /** The position recorded under {@code appId}, as of the latest state this sink read or wrote. */
  public OptionalLong recordedOffset(String appId) {
    return table.position(appId);
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
   * The live rows of {@code columns} of the latest state this sink read or wrote, from the files
   * whose statistics allow the integer values of {@code equalTo}; the caller closes them.
   *
   * @throws IllegalArgumentException a column is not in the table
   */
  RowScan scan(List<String> columns, Map<String, Long> equalTo) throws IOException {
    return table.scan(columns, equalTo);
  }

  /**
   * The change set of one commit of this table: what its kind makes of {@code changes}
   * ({@link TableKind#assemble}), with {@code txns}, the positions of the partitions it accounts for
   * (docs/design.md, "Exactly once"); attached here, for every kind. When the changes hold pieces of
   * source transactions larger than a buffer, the commit names them in tag {@value #TRANSACTION_PIECES_TAG}
   * (docs/transactions.md).
   */
  public ChangeSet changeSet(List<TableChanges> changes, Map<String, TxnChange> txns) throws IOException {
    return changeSet(changes, txns, Map.of());
  }

  /** As {@link #changeSet(List, Map)}, the commit carrying {@code tags} too (a consistent cut's, docs/transactions.md). */
  public ChangeSet changeSet(List<TableChanges> changes, Map<String, TxnChange> txns, Map<String, String> tags) throws IOException {
    ChangeSet.Builder builder;
    synchronized (kind) {
      builder = kind.assemble(this, changes);
    }
    txns.forEach(builder::txn);
    Set<String> pieces = new TreeSet<>();
    changes.forEach(change -> pieces.addAll(change.transactionPieces()));
    if (!pieces.isEmpty()) {
      builder.commitTag(TRANSACTION_PIECES_TAG, String.join(",", pieces));
    }
    tags.forEach(builder::commitTag);
    return builder.build();
  }

  /**
   * What {@code spec} does with {@code source} against the table the writer holds, opening the
   * writer first if needed; nothing is committed ({@link FormatTable#decide}).
   */
  MergeActions decide(MergeSpec spec, List<Row> source) throws IOException {
    return table.decide(spec, source);
  }

  /**
   * The live rows of this keyed table by key, as of the writer's snapshot (the writer is opened
   * if needed); valid until the next commit.
   */
  /** Whether changes can be decided against the table's rows ({@link FormatTable#decidesAgainstRows}). */
  boolean decidesAgainstRows() {
    return table.decidesAgainstRows();
  }

  /** Whether the table orders a key's rows by a sequence column itself ({@link FormatTable#ordersBySequenceColumn}). */
  boolean ordersBySequenceColumn() {
    return table.ordersBySequenceColumn();
  }

  /** The first version of the table's last {@code commits} commits up to {@code version} ({@link FormatTable#firstOfLastCommits}). */
  long firstOfLastCommits(long version, int commits) {
    return table.firstOfLastCommits(version, commits);
  }

  /** Makes the table order a key's rows by {@code column} ({@link FormatTable#orderBySequenceColumn}). */
  void orderBySequenceColumn(String column) throws IOException {
    table.orderBySequenceColumn(column);
  }

  LiveRows liveRows() throws IOException {
    return table.liveRows();
  }

  /** The table's properties, as of the latest state this sink read or wrote. */
  Map<String, String> properties() {
    return table.properties();
  }

  /** The table schema rows are prepared and re-fitted for: that of the latest state this sink read or wrote. */
  public StructType schema() {
    return table.schema();
  }

  /** The table as a catalog registers it, as of the latest state this sink read or wrote. */
  public CatalogTable catalogEntry() {
    return CatalogTable.at(name, table.location(), table.schema(), table.partitionColumns());
  }

  /**
   * Re-fits a buffered row made for an older schema of this table (columns were added since):
   * the new columns read as null.
   */
  public Row refit(StructType rowSchema, Row row) {
    return rowSchema.equals(table.schema()) ? row : valueAligners.get(rowSchema, table.schema()).align(row);
  }

  /**
   * Commits {@code changes}, opening the writer first if needed.
   *
   * @throws FencedException a txn of the change set does not hold the version it expects: another
   *     task took that partition over
   */
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    CommitResult result = table.commit(changes);
    synchronized (kind) {
      kind.landed(this);
    }
    return result;
  }

  /**
   * Maintenance of the files of this task's partitions (docs/design.md, "Maintenance"), prepared on
   * the state the writer holds at this call, to run anywhere ({@link FormatTable#compaction}).
   *
   * @return empty before the first commit of this assignment (no writer, no scope yet)
   */
  public Optional<CompactionRun> compaction() {
    return table.compaction();
  }

  /** A compaction of the table committed: the writer reads it, so its key index points into the new files. */
  public void compacted() throws IOException {
    table.compacted();
  }

  /** The heap the table's key index takes, an estimate; 0 when none is loaded. */
  long keyIndexHeapBytes() {
    return table.keyIndexHeapBytes();
  }

  /** Drops the table's key index to free its heap; its next commit loads it again ({@link KeyIndexBudget}). */
  void dropKeyIndex() {
    table.dropKeyIndex();
  }

  /**
   * Drops the writer (and its key index): the task's partitions changed, so file tags and index
   * scope do too. The next commit opens a writer for {@code partitions}.
   *
   * @return false when the table is gone (deleted by an operator while the task ran)
   */
  public boolean reassign(Collection<KafkaPartition> partitions) throws IOException {
    return table.reassign(partitions);
  }

  /**
   * {@code row} of {@code schema} in the table's schema, with generated columns filled; adds or
   * widens columns first when the row needs it and {@code schema.evolution} allows it.
   *
   * @throws SchemaMismatchException the row does not fit and the table may not change for it
   */
  Row fit(StructType schema, Row row) throws IOException {
    RowAligner aligner = valueAligners.get(schema, table.schema());
    if (aligner.hasExtraColumns() || (evolution == SchemaEvolution.WIDEN_TYPES && !aligner.mismatchedColumns().isEmpty())) {
      aligner = evolve(schema, aligner);
    }
    Row aligned = table.complete(aligner.align(row));
    String problem = RowValidator.problem(table.schema(), aligned, true);
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
      table.addColumns(aligner.extraColumns());
    }
    if (evolution == SchemaEvolution.WIDEN_TYPES && !aligner.mismatchedColumns().isEmpty()) {
      Map<String, DataType> widened = new LinkedHashMap<>();
      for (StructField column : aligner.mismatchedColumns()) {
        if (keyColumns.contains(column.name())) {
          // buffered changes of the old key type would not coalesce with those of the new one
          throw new SchemaMismatchException("table " + name + ": primary key column '" + column.name() + "' is "
              + table.schema().field(column.name()).orElseThrow().type() + " but the record has " + column.type()
              + "; MergeSink does not widen primary key columns (stop the connector, widen the column with ALTER TABLE ... ALTER"
              + " COLUMN ... TYPE in Spark, and start it again)");
        }
        widened.put(column.name(), column.type());
      }
      try {
        table.widenColumns(widened);
      } catch (IllegalArgumentException e) {
        throw new SchemaMismatchException(e.getMessage() + " (schema.evolution=widen-types)");
      }
      LOG.info("Table {}: widened column(s) {} at version {}", name, widened, table.version());
    }
    return valueAligners.get(schema, table.schema());
  }

  /**
   * Makes the NOT NULL columns of this append table that a row of {@code schema} has no value for
   * nullable (docs/design.md, "Append tables"): the row of a delete may hold only its key. Tables
   * made before append tables kept their non-key columns nullable have such columns.
   *
   * @throws SchemaMismatchException the table has such columns and may not change (schema.evolution=none)
   */
  void makeRoomFor(StructType schema, ChangeEvent event) throws IOException {
    if (valueAligners.has(schema, table.schema())) {
      return; // an aligner exists only for rows that fit the current schema
    }
    List<String> missing = new ArrayList<>();
    for (StructField column : table.schema().fields()) {
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
    table.makeNullable(missing);
    LOG.info("Append table {}: made column(s) {} nullable at version {}, so that rows of deletes without them fit", name, missing,
        table.version());
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
    if (derived == null || derived.schema() != table.schema()) {
      derived = new SchemaDerived(table.schema(), table.schema().select(keyColumns));
    }
    return derived;
  }

  /** The key columns of {@code schema}. */
  private record SchemaDerived(StructType schema, StructType keySchema) {}

  private static List<String> names(RowAligner aligner) {
    return aligner.extraColumns().stream().map(field -> field.name()).toList();
  }
}
