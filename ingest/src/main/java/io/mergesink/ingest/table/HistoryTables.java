package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.UpsertOrder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
  /** By {@code upsert.order.by}, else in Kafka order. */
  private final Landing configured;
  /** In Kafka order, the landings of tables whose keys moved between partitions, by the source position that orders them. */
  private final Map<UpsertOrder, Landing> movedKeys = new HashMap<>();
  /** Per table, the ordered history that decided its last change set, which {@link #landed} completes. */
  private final Map<String, OrderedHistory> decided = new HashMap<>();

  /** How a table's changes are decided: the order of the changes of a key, the history that walks them in it. */
  private record Landing(TableOrder order, OrderedHistory history) {
    static Landing of(UpsertOrder orderBy, IngestMetrics metrics, int deletedKeysMax) {
      TableOrder order = TableOrder.of(orderBy, metrics);
      return new Landing(order, new OrderedHistory(order.versions(), deletedKeysMax));
    }
  }

  /** In Kafka order. */
  HistoryTables() {
    this(ChangeSemantics.DEFAULT, IngestMetrics.NONE);
  }

  /** Ordered by {@code semantics.orderBy()} (none: Kafka order), stale changes reported to {@code metrics}. */
  HistoryTables(ChangeSemantics semantics, IngestMetrics metrics) {
    this.semantics = semantics;
    this.metrics = metrics;
    this.configured = Landing.of(semantics.orderBy(), metrics, semantics.deletedKeysMax());
  }

  /**
   * Ordered by a source position: the BIGINT columns that keep each version's position and that of
   * the change that ended it. Ordered by a named column, the end column takes that column's type
   * and is made with the table ({@link #newTableSchema}).
   */
  @Override
  public List<StructField> ownColumns() {
    return ownColumns(configured.order());
  }

  /** The sink's sequence column ({@link TableOrder#ownColumns}), each followed by its end column. */
  private static List<StructField> ownColumns(TableOrder order) {
    List<StructField> columns = new ArrayList<>();
    for (StructField sequence : order.ownColumns()) {
      columns.add(sequence);
      columns.add(new StructField(HistoryColumns.endColumn(sequence.name()), sequence.type(), true));
    }
    return columns;
  }

  @Override
  public WriteKind writeKind() {
    return WriteKind.BY_KEY;
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
    Optional<String> rowColumn = configured.order().rowColumn();
    if (rowColumn.isPresent()) {
      Optional<StructField> sequence = event.valueSchema().field(rowColumn.get());
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
    String sequence = configured.order().column();
    if (sequence != null) {
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
   * The change set of the changes in the table's order ({@link OrderedHistory}); a change set in
   * Kafka order lands only while no other topic's keys moved (docs/design.md, "Topics that grow").
   */
  @Override
  public ChangeSet.Builder assemble(TableSink sink, List<TableChanges> changes) throws IOException {
    String movedKeyTopics = sink.movedKeyTopics();
    Landing landing = configured;
    if (movedKeyTopics != null) {
      landing = movedKeys(sink, movedKeyTopics, changes).orElse(configured);
    }
    decided.put(sink.name(), landing.history());
    ChangeSet.Builder builder = landing.history().assemble(sink, changes);
    landing.order().decidedUnder(builder, movedKeyTopics);
    return builder;
  }

  /**
   * The landing of a table whose topics {@code movedKeyTopics} grew: in Kafka order, ordered by the
   * source position the changes carry ({@link TableOrder#movedKeysOrder}), whose columns the table
   * gets now; empty when the table keeps its order.
   */
  private Optional<Landing> movedKeys(TableSink sink, String movedKeyTopics, List<TableChanges> changes) throws IOException {
    Optional<UpsertOrder> byPosition = configured.order().movedKeysOrder(sink.schema(), changes);
    if (byPosition.isEmpty()) {
      return Optional.empty();
    }
    UpsertOrder order = byPosition.get();
    Landing landing = movedKeys.computeIfAbsent(order, o -> Landing.of(o, metrics, semantics.deletedKeysMax()));
    for (StructField column : ownColumns(landing.order())) {
      sink.addOwnColumn(column, "topic(s) " + movedKeyTopics + " grew, so the versions of a key are ordered by " + order.configValue());
    }
    return Optional.of(landing);
  }
}
