package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.WriteMode;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What differs between keyed tables, append tables and history tables, from the buffer to the
 * change set (docs/design.md, "Append tables", "History tables"): the engine picks one kind for all its tables when it is built,
 * so that nothing downstream asks which kind it writes. merge-core keeps the same split in its
 * writers ({@code MergingTableWriter}, {@code AppendTableWriter}).
 */
public sealed interface TableKind permits KeyedTables, AppendTables, HistoryTables {
  /** The kind of the tables {@code mode} writes, in Kafka order with hard deletes, each delete once in append tables. */
  static TableKind of(WriteMode mode) {
    return of(mode, ChangeSemantics.DEFAULT, AppendTombstones.SKIP_AFTER_DELETE, IngestMetrics.NONE);
  }

  /**
   * The kind of the tables {@code mode} writes; keyed and history tables apply {@code semantics} and
   * report skipped stale changes to {@code metrics}; append tables record Kafka tombstones as
   * {@code tombstones} says.
   */
  static TableKind of(WriteMode mode, ChangeSemantics semantics, AppendTombstones tombstones, IngestMetrics metrics) {
    return switch (mode) {
      case UPSERT -> new KeyedTables(semantics, metrics);
      case APPEND -> new AppendTables(tombstones);
      case HISTORY -> new HistoryTables(semantics, metrics);
    };
  }

  /**
   * Columns the sink itself keeps in every table of this kind (docs/design.md, "Ordering and soft
   * deletes"): added to new tables, and to existing ones when a task opens them.
   */
  default List<StructField> ownColumns() {
    return List.of();
  }

  /** How a partition's buffer keeps the changes of one table. */
  PendingChanges newPendingChanges();

  /**
   * Whether {@code event} creates its table when there is none (a delete of a table that never
   * existed changes nothing in a keyed table, but is a row of an append table).
   */
  boolean createsTable(ChangeEvent event);

  /** The primary key of a table created from {@code event}, given {@code primary.key.fields}. */
  List<String> newTableKey(ChangeEvent event, List<String> configuredKey);

  /** The schema of a table created from {@code event}, before computed partition columns, with key {@code key}. */
  StructType newTableSchema(ChangeEvent event, List<String> key);

  /**
   * Checks, when a task opens an existing table, that it is a table of this kind. A history table
   * (one that names a current-row column) written as a keyed or append table would get rows whose
   * version columns are null; its closed versions, invisible to the key index, would stay current.
   *
   * @throws UnsupportedTableException the table's {@code configuration} says it is of another kind
   */
  default void checkKind(String table, Map<String, String> configuration) {
    CurrentRowColumn.of(configuration).ifPresent(column -> {
      throw UnsupportedTableException.notWritable(table, "it is a history table (table property " + CurrentRowColumn.PROPERTY
          + "=" + column + "); write it with write.mode=history, or the records into another table");
    });
  }

  /** Table properties a new table of this kind records beside {@code table.properties.*}. */
  default Map<String, String> newTableProperties() {
    return Map.of();
  }

  /**
   * The key columns a sink fits events to: the key the table records, else the configured one;
   * none for append tables.
   */
  List<String> keyColumns(List<String> recordedKey, List<String> configuredKey);

  /**
   * Whether {@code event} leaves {@code sink}'s table as it is because the table has its change
   * already (an append table's Kafka tombstone right after the delete of its key, docs/design.md
   * "Append tables"); the caller then buffers nothing for it, and its position advances as for any
   * record. The record processed before it in its partition is at {@code previousOffset}, which the
   * table accounts for when {@code previousInTable}.
   *
   * @throws IOException reading the table failed
   */
  default boolean changesNothing(TableSink sink, ChangeEvent event, long previousOffset, boolean previousInTable)
      throws IOException {
    return false;
  }

  /**
   * {@code event} as a change of {@code sink}'s table, ready to buffer: key and row in the table's
   * schema, which may change for it (schema evolution).
   *
   * @throws io.mergesink.ingest.align.SchemaMismatchException the event does not fit the table (and
   *     cannot be made to fit)
   */
  ChangeEvent prepare(TableSink sink, ChangeEvent event) throws IOException;

  /**
   * The change set of one commit: the buffered changes of several partitions for {@code sink}'s
   * table, re-fitted to its current schema, with {@code txns}.
   *
   * @throws IOException reading the table failed (history tables read the current rows they close; ordered
   *     and soft-delete keyed tables the rows they decide against)
   */
  ChangeSet assemble(TableSink sink, List<TableChanges> changes, Map<String, TxnChange> txns) throws IOException;

  /**
   * The change set last assembled for {@code sink}'s table landed. A change set can be assembled
   * again before it lands (a concurrent commit moved the rows it was decided from): what deciding
   * it remembers or counts takes effect here, once.
   */
  default void landed(TableSink sink) {}
}
