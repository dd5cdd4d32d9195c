package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.UpsertOrder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * History tables ({@code write.mode=history}, SCD type 2; docs/design.md, "History tables"): every
 * version of a key is a row with {@link HistoryColumns}. A change of a key closes its current row
 * ({@code __valid_to} = the change's time, {@code __current} = false) and adds the new version; a
 * delete closes it; a truncate closes every current row.
 *
 * <p>Nothing is coalesced: every change of a flush that changes a value becomes a version, in Kafka
 * order (partition after partition, each in offset order), or with {@code upsert.order.by} where its
 * sequence puts it in its key's history ({@link OrderedHistory}); so is a table whose topic grew,
 * by the source position its changes carry (docs/design.md, "Topics that grow"). In Kafka order a change whose
 * values equal the open version's (a re-snapshot, an update that set nothing new) leaves that
 * version open; ordered, it still becomes a version, whose sequence a later late change is ordered
 * against (docs/design.md, "History tables"). The change set replaces each touched key's current row
 * by its last version (or deletes it), and appends the closed versions, which the key index never
 * sees: the table names {@code __current} as its {@link CurrentRowColumn}, so only current rows are
 * live to the index, and "at most one live row per key" becomes "at most one current row per key".
 * Exactly once holds as for upserts: the closed versions land in the same commit as the txns.
 */
final class HistoryTables implements TableKind {
  private final HistoryColumns columns = new HistoryColumns();
  private final KeyedTables keyed = new KeyedTables();
  private final ChangeSemantics semantics;
  private final IngestMetrics metrics;
  /** With {@code upsert.order.by}: where each change lands in its key's history; null in Kafka order. */
  private final OrderedHistory ordered;
  /** In Kafka order, the histories of tables whose keys moved between partitions, by the source position that orders them. */
  private final Map<UpsertOrder, OrderedHistory> movedKeys = new HashMap<>();
  /** Per table, the ordered history that decided its last change set, which {@link #landed} completes. */
  private final Map<String, OrderedHistory> decided = new HashMap<>();

  /** In Kafka order. */
  HistoryTables() {
    this(ChangeSemantics.DEFAULT, IngestMetrics.NONE);
  }

  /** Ordered by {@code semantics.orderBy()} (none: Kafka order), stale changes reported to {@code metrics}. */
  HistoryTables(ChangeSemantics semantics, IngestMetrics metrics) {
    this.semantics = semantics;
    this.metrics = metrics;
    this.ordered = semantics.ordered() ? new OrderedHistory(new SequenceOrder(semantics.orderBy(), metrics), semantics.deletedKeysMax()) : null;
  }

  /**
   * Ordered by a source position: the BIGINT columns that keep each version's position and that of
   * the change that ended it. Ordered by a named column, the end column takes that column's type
   * and is made with the table ({@link #newTableSchema}).
   */
  @Override
  public List<StructField> ownColumns() {
    return semantics.ordered() ? ownColumns(semantics.orderBy()) : List.of();
  }

  private static List<StructField> ownColumns(UpsertOrder order) {
    if (!order.sinkColumn()) {
      return List.of();
    }
    String sequence = order.column();
    return List.of(new StructField(sequence, PrimitiveType.LONG, true),
        new StructField(HistoryColumns.endColumn(sequence), PrimitiveType.LONG, true));
  }

  /** Every event in offset order: history keeps every version. */
  @Override
  public PendingChanges newPendingChanges() {
    return PendingChanges.inOffsetOrder();
  }

  @Override
  public boolean createsTable(ChangeEvent event) {
    return keyed.createsTable(event);
  }

  @Override
  public List<String> newTableKey(ChangeEvent event, List<String> configuredKey) {
    return keyed.newTableKey(event, configuredKey);
  }

  /** The keyed table's schema with the version columns appended, then the ordering's ({@link #ownColumns}). */
  @Override
  public StructType newTableSchema(ChangeEvent event, List<String> key) {
    StructType schema = columns.schema(keyed.newTableSchema(event, key));
    for (StructField own : ownColumns()) {
      schema = schema.add(own);
    }
    if (semantics.ordered() && !semantics.orderBy().sinkColumn()) {
      Optional<StructField> sequence = event.valueSchema().field(semantics.orderBy().column());
      if (sequence.isPresent()) {
        schema = schema.add(new StructField(HistoryColumns.endColumn(sequence.get().name()), sequence.get().type(), true));
      }
    }
    return schema;
  }

  @Override
  public Map<String, String> newTableProperties() {
    return CurrentRowColumn.toProperty(HistoryColumns.CURRENT);
  }

  @Override
  public List<String> keyColumns(List<String> recordedKey, List<String> configuredKey) {
    return keyed.keyColumns(recordedKey, configuredKey);
  }

  /**
   * @throws UnsupportedTableException the table is not a history table (it names no {@code __current}
   *     current-row column): written as one, it would hold several live rows per key
   */
  @Override
  public void checkKind(String table, Map<String, String> configuration) {
    if (!CurrentRowColumn.of(configuration).equals(Optional.of(HistoryColumns.CURRENT))) {
      throw UnsupportedTableException.notWritable(table, "write.mode=history needs the current-row column " + HistoryColumns.CURRENT
          + " (table property " + CurrentRowColumn.PROPERTY + "): it is not a history table, and written as one it would hold"
          + " several live rows per key; write it with write.mode=upsert, or its history into a new table");
    }
  }

  /**
   * Upserts become rows of the table with their version columns unplaced; deletes and truncates
   * as in keyed tables.
   *
   * @throws FatalIngestException the table lacks a column {@code upsert.order.by} keeps its versions' order in
   */
  @Override
  public ChangeEvent prepare(TableSink sink, ChangeEvent event) throws IOException {
    if (ordered != null) {
      String sequence = semantics.orderBy().column();
      for (String column : List.of(sequence, HistoryColumns.endColumn(sequence))) {
        if (sink.schema().indexOf(column) < 0) {
          throw new FatalIngestException("history table " + sink.name() + " has no column '" + column + "', which upsert.order.by="
              + semantics.orderBy().configValue() + " keeps its versions' order in (a history table ordered by a column of its own"
              + " gets it when it is created); its columns are " + sink.schema().fieldNames(), null);
        }
      }
    }
    if (event.op() != Op.UPSERT) {
      return keyed.prepare(sink, event);
    }
    StructType schema = columns.schema(event.valueSchema());
    return event.with(Op.UPSERT, sink.key(event.keySchema(), event.key()), sink.keySchema(),
        sink.fit(schema, HistoryColumns.unplaced(event.value())), sink.schema(),
        event.previousKey() == null ? null : sink.key(event.keySchema(), event.previousKey()));
  }

  @Override
  public void landed(TableSink sink) {
    OrderedHistory history = decided.remove(sink.name());
    if (history != null) {
      history.landed(sink.name());
    }
  }

  /**
   * Walks the changes in order over the current rows of their keys (read by position through the
   * key index, all columns): each change closes the key's open version and opens its own, whose
   * TOASTed ({@link Unchanged}) columns take the values of the version it follows.
   */
  @Override
  public ChangeSet assemble(TableSink sink, List<TableChanges> changes, Map<String, TxnChange> txns) throws IOException {
    String movedKeyTopics = sink.movedKeyTopics();
    OrderedHistory history = ordered != null ? ordered : movedKeyTopics == null ? null : movedKeys(sink, movedKeyTopics, changes);
    if (history != null) {
      decided.put(sink.name(), history);
      return history.assemble(sink, changes, txns);
    }
    LiveRows live = sink.liveRows(); // opens the writer first, which may read a newer schema
    // a change set in Kafka order lands only while no other topic's keys moved (docs/design.md, "Topics that grow")
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(sink.schema()).decidedUnder(PartitionOwners.TABLE_SCOPE_TOPICS,
        movedKeyTopics);
    Versions versions = new Versions(sink.schema());
    Map<Row, Row> tableRows = currentRows(live, sink.schema(), changes);
    Map<Row, Row> open = new LinkedHashMap<>(tableRows);
    Map<Row, Row> last = new HashMap<>(tableRows);
    boolean scanned = false;
    for (TableChanges partition : changes) {
      for (ChangeEvent event : partition.changes()) {
        Long time = HistoryColumns.time(event);
        switch (event.op()) {
          case UPSERT -> {
            Row previous = open.get(event.key());
            Row base = previous != null || event.previousKey() == null ? previous : last.get(event.previousKey());
            Row version = versions.opened(sink.refit(event.valueSchema(), event.value()), base, time);
            if (previous != null && versions.sameValues(previous, version)) {
              continue; // a re-snapshot of the row, or an update that changed nothing: the open version stays
            }
            if (previous != null) {
              builder.append(versions.closed(previous, time));
            }
            open.put(event.key(), version);
            last.put(event.key(), version);
          }
          case DELETE -> {
            Row previous = open.remove(event.key());
            if (previous != null) {
              builder.append(versions.closed(previous, time));
            }
          }
          case TRUNCATE -> {
            if (!scanned) {
              for (Row row : live.readAll()) {
                Row key = versions.key(row, sink.keySchema());
                if (!last.containsKey(key)) {
                  tableRows.put(key, row);
                  open.put(key, row);
                  last.put(key, row);
                }
              }
              scanned = true;
            }
            for (Row previous : open.values()) {
              builder.append(versions.closed(previous, time));
            }
            open.clear();
          }
          default -> throw new IllegalStateException("a " + event.op() + " event was buffered at " + event.position());
        }
      }
    }
    Set<Row> touched = new LinkedHashSet<>(tableRows.keySet());
    touched.addAll(last.keySet());
    for (Row key : touched) {
      Row version = open.get(key);
      Row inTable = tableRows.get(key);
      if (version != null && version != inTable) {
        builder.upsert(version);
      } else if (version == null && inTable != null) {
        builder.delete(key);
      }
    }
    // decided from the current rows read: lands only while they are where they were (docs/design.md, "History tables")
    builder.decidedFrom(live.reads());
    txns.forEach(builder::txn);
    return builder.build();
  }

  /**
   * The history of a table in Kafka order whose topics {@code movedKeyTopics} grew: ordered by the
   * source position the changes carry ({@link MovedKeysOrder}), whose columns the table gets now;
   * null when there is none (Kafka order stays).
   */
  private OrderedHistory movedKeys(TableSink sink, String movedKeyTopics, List<TableChanges> changes) throws IOException {
    Optional<UpsertOrder> byPosition = MovedKeysOrder.of(sink.schema(), changes);
    if (byPosition.isEmpty()) {
      return null;
    }
    UpsertOrder order = byPosition.get();
    for (StructField column : ownColumns(order)) {
      sink.addOwnColumn(column, "topic(s) " + movedKeyTopics + " grew, so the versions of a key are ordered by " + order.configValue());
    }
    return movedKeys.computeIfAbsent(order, o -> new OrderedHistory(new SequenceOrder(o, metrics), semantics.deletedKeysMax()));
  }

  /** The current rows of the keys {@code changes} change or take TOASTed values from, by key. */
  private static Map<Row, Row> currentRows(LiveRows live, StructType schema, List<TableChanges> changes) throws IOException {
    Set<Row> wanted = new LinkedHashSet<>();
    for (TableChanges partition : changes) {
      for (ChangeEvent event : partition.changes()) {
        if (event.key() != null) {
          wanted.add(event.key());
        }
        if (event.previousKey() != null) {
          wanted.add(event.previousKey());
        }
      }
    }
    Row[] keys = wanted.toArray(new Row[0]);
    Row[] rows = keys.length == 0 ? new Row[0] : live.read(keys, schema.fieldNames());
    Map<Row, Row> current = new LinkedHashMap<>();
    for (int i = 0; i < keys.length; i++) {
      if (rows[i] != null) {
        current.put(keys[i], rows[i]);
      }
    }
    return current;
  }

  /** Sets the version columns of rows of one table schema. */
  private static final class Versions {
    private final StructType schema;
    private final int from;
    private final int to;
    private final int current;

    Versions(StructType schema) {
      this.schema = schema;
      this.from = ordinal(schema, HistoryColumns.VALID_FROM);
      this.to = ordinal(schema, HistoryColumns.VALID_TO);
      this.current = ordinal(schema, HistoryColumns.CURRENT);
    }

    /** Whether two versions hold the same values, their version columns aside. */
    boolean sameValues(Row version, Row other) {
      return withoutVersionColumns(version).equals(withoutVersionColumns(other));
    }

    private Row withoutVersionColumns(Row row) {
      Object[] values = row.toArray();
      values[from] = null;
      values[to] = null;
      values[current] = null;
      return Row.of(values);
    }

    /** {@code row}, ended at {@code time}. */
    Row closed(Row row, Long time) {
      Object[] values = row.toArray();
      values[to] = time;
      values[current] = Boolean.FALSE;
      return Row.of(values);
    }

    /** {@code row} as the current version from {@code time}, its unchanged columns from {@code base} (null where there is none). */
    Row opened(Row row, Row base, Long time) {
      Object[] values = row.toArray();
      for (int i = 0; i < values.length; i++) {
        if (values[i] == Unchanged.VALUE) {
          values[i] = base == null ? null : base.get(i);
        }
      }
      values[from] = time;
      values[to] = null;
      values[current] = Boolean.TRUE;
      return Row.of(values);
    }

    Row key(Row row, StructType keySchema) {
      return row.project(keySchema.fieldNames().stream().mapToInt(schema::indexOf).toArray());
    }

    private static int ordinal(StructType schema, String column) {
      int ordinal = schema.indexOf(column);
      if (ordinal < 0) {
        throw new IllegalStateException("a history table without its column '" + column + "': " + schema.fieldNames());
      }
      return ordinal;
    }
  }
}
