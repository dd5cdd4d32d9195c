package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tables with a primary key ({@code write.mode=upsert}): the last change per key wins, deletes
 * remove the row, truncates empty the table. With {@code upsert.order.by} the change with the newest
 * source sequence wins instead, and with {@code delete.mode=soft} a delete marks the row; both land
 * through the MERGE engine ({@link OrderedMerge}). How changes are ordered is one {@link TableOrder},
 * chosen from {@code upsert.order.by}, which the buffer, the MERGE and this class ask.
 *
 * <p>Debezium sends a key always to the same partition, so Kafka order is the source's order for
 * each key. When a topic grows, keys move between partitions and a key's older changes in its old
 * partition may land after its newer ones in the new partition (docs/design.md, "Topics that
 * grow"). So a table that names a topic whose keys moved ({@link TableSink#movedKeyTopics}) is
 * ordered by the source position its changes carry ({@link TableOrder#movedKeysOrder}) even without
 * {@code upsert.order.by}, and a change set decided in Kafka order lands only while the table names
 * no such topic other than the ones it named when it was decided. Of two changes of a key from
 * different partitions in one change set, the newer by that order wins (without one, the later
 * Kafka timestamp). A truncate in any partition truncates the table before the change set's upserts.
 */
final class KeyedTables implements TableKind {
  private static final Logger LOG = LoggerFactory.getLogger(KeyedTables.class);

  private final ChangeSemantics semantics;
  private final IngestMetrics metrics;
  private final Landing configured;
  /** The landings of tables whose keys moved, by the source position that orders them. */
  private final Map<UpsertOrder, Landing> movedKeys = new HashMap<>();
  /** Per table, the landing of its last decided change set, which {@link #landed} completes. */
  private final Map<String, Landing> decided = new HashMap<>();
  /** Per order, the landing of tables that order their rows by the sink's sequence column themselves. */
  private final Map<TableOrder, SequenceColumnLanding> sequenced = new HashMap<>();
  /** Per table, the landing of its last change set decided for a sequence column, which {@link #landed} completes. */
  private final Map<String, SequenceColumnLanding> decidedSequenced = new HashMap<>();
  /** Tables whose topics grew but whose format keeps them in Kafka order (warned once). */
  private final Set<String> keptInKafkaOrder = new HashSet<>();

  /** How a table's changes are decided: the semantics, the order of changes they give, the MERGE that lands them. */
  private record Landing(ChangeSemantics semantics, TableOrder order, OrderedMerge merge) {
    static Landing of(ChangeSemantics semantics, IngestMetrics metrics) {
      TableOrder order = TableOrder.of(semantics.orderBy(), metrics);
      return new Landing(semantics, order, new OrderedMerge(order, semantics.deleteMode(), semantics.deletedKeysMax()));
    }
  }

  /** Kafka order and hard deletes. */
  KeyedTables() {
    this(ChangeSemantics.DEFAULT, IngestMetrics.NONE);
  }

  KeyedTables(ChangeSemantics semantics, IngestMetrics metrics) {
    this.semantics = semantics;
    this.metrics = metrics;
    this.configured = Landing.of(semantics, metrics);
  }

  @Override
  public WriteKind writeKind() {
    return WriteKind.BY_KEY;
  }

  @Override
  public PendingChanges newPendingChanges() {
    return semantics.merges() ? PendingChanges.coalescedByKey(configured.order().changes())
        : PendingChanges.coalescedByKey();
  }

  @Override
  public List<StructField> ownColumns() {
    return configured.merge().ownColumns();
  }

  @Override
  public boolean createsTable(ChangeEvent event) {
    return event.op() == Op.UPSERT;
  }

  /** {@code primary.key.fields} when set, else the record key's columns. */
  @Override
  public List<String> newTableKey(ChangeEvent event, List<String> configuredKey) {
    return configuredKey.isEmpty() ? event.keySchema().fieldNames() : configuredKey;
  }

  /** The event's row schema with the key columns NOT NULL, then the sink's own columns ({@link #ownColumns()}). */
  @Override
  public StructType newTableSchema(ChangeEvent event, List<String> key) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : event.valueSchema().fields()) {
      fields.add(key.contains(field.name()) ? new StructField(field.name(), field.type(), false, field.metadata()) : field);
    }
    StructType schema = new StructType(fields);
    for (StructField own : ownColumns()) {
      if (schema.indexOf(own.name()) < 0) {
        schema = schema.add(own);
      }
    }
    return schema;
  }

  @Override
  public List<String> keyColumns(List<String> recordedKey, List<String> configuredKey) {
    return recordedKey.isEmpty() ? configuredKey : recordedKey;
  }

  /**
   * @throws FatalIngestException the table has no column {@code upsert.order.by} names
   */
  @Override
  public ChangeEvent prepare(TableSink sink, ChangeEvent event) throws IOException {
    Optional<String> sequence = configured.order().rowColumn();
    if (sequence.isPresent() && sink.schema().indexOf(sequence.get()) < 0) {
      throw new FatalIngestException("table " + sink.name() + " has no column '" + sequence.get()
          + "', which upsert.order.by names; its columns are " + sink.schema().fieldNames(), null);
    }
    return switch (event.op()) {
      case UPSERT -> event.with(Op.UPSERT, sink.key(event.keySchema(), event.key()), sink.keySchema(),
          sink.fit(event.valueSchema(), event.value()), sink.schema(),
          event.previousKey() == null ? null : sink.key(event.keySchema(), event.previousKey()));
      case DELETE -> event.with(Op.DELETE, sink.key(event.keySchema(), event.key()), sink.keySchema(), null, null, null);
      default -> event;
    };
  }

  @Override
  public ChangeSet.Builder assemble(TableSink sink, List<TableChanges> changes) throws IOException {
    Landing landing = configured;
    String movedKeyTopics = sink.movedKeyTopics();
    Optional<Landing> bySequenceColumn = sink.ordersBySequenceColumn() ? bySequenceColumn(sink, changes, movedKeyTopics)
        : Optional.empty();
    if (bySequenceColumn.isPresent()) {
      landing = bySequenceColumn.get();
    } else if (movedKeyTopics != null && !sink.decidesAgainstRows()) {
      if (keptInKafkaOrder.add(sink.name())) {
        LOG.warn("Table {}: topic(s) {} grew, but its format cannot order changes by a source position; they stay in Kafka order, "
            + "so of two changes of a key that moved between partitions the one committed last wins", sink.name(), movedKeyTopics);
      }
    } else if (movedKeyTopics != null) {
      Optional<UpsertOrder> byPosition = configured.order().movedKeysOrder(sink.schema(), changes);
      if (byPosition.isPresent()) {
        UpsertOrder order = byPosition.get();
        landing = movedKeys.computeIfAbsent(order,
            o -> Landing.of(new ChangeSemantics(o, semantics.deleteMode(), semantics.deletedKeysMax()), metrics));
        for (StructField column : landing.order().ownColumns()) {
          sink.addOwnColumn(column, "topic(s) " + movedKeyTopics + " grew, so changes of a key are ordered by " + order.configValue());
        }
      }
    }
    decided.put(sink.name(), landing);
    decidedSequenced.remove(sink.name());
    // rows are re-fitted to the sink's current schema; the writer pads them if the table gains columns before they land
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(sink.schema());
    TableOrder order = landing.order();
    order.decidedUnder(builder, movedKeyTopics);
    order.changes().deciding();
    Map<Row, ChangeEvent> latest = new LinkedHashMap<>();
    boolean truncated = false;
    for (TableChanges partition : changes) {
      if (partition.truncatedAt().isPresent()) {
        builder.truncate();
        truncated = true;
      }
      for (ChangeEvent event : partition.changes()) {
        latest.merge(event.key(), event, order::newer);
      }
    }
    if (bySequenceColumn.isPresent()) {
      SequenceColumnLanding sequenceColumn = sequenced.computeIfAbsent(order,
          o -> new SequenceColumnLanding(o, semantics.deletedKeysMax()));
      decidedSequenced.put(sink.name(), sequenceColumn);
      return sequenceColumn.assemble(sink, builder, new ArrayList<>(latest.values()), truncated);
    }
    if (landing.semantics().merges()) {
      return landing.merge().assemble(sink, builder, new ArrayList<>(latest.values()), truncated);
    }
    for (ChangeEvent event : latest.values()) {
      if (event.op() == Op.UPSERT) {
        builder.upsert(sink.refit(event.valueSchema(), event.value()), event.previousKey());
      } else {
        builder.delete(event.key());
      }
    }
    return builder;
  }

  /**
   * The landing of a table that orders its rows by a sequence column itself: by the source position
   * {@code upsert.order.by} names, or, in Kafka order, by the one its changes carry once its topic
   * grew (the sink's column added); empty in Kafka order otherwise, with soft deletes, or ordered by
   * a column of the row (a delete carries no value of it).
   */
  private Optional<Landing> bySequenceColumn(TableSink sink, List<TableChanges> changes, String movedKeyTopics) throws IOException {
    if (!DeleteHandling.of(semantics.deleteMode()).removesRows()) {
      return Optional.empty();
    }
    if (!configured.order().ownColumns().isEmpty()) {
      return Optional.of(configured);
    }
    if (movedKeyTopics == null || configured.order().rowColumn().isPresent()) {
      return Optional.empty();
    }
    Optional<UpsertOrder> byPosition = configured.order().movedKeysOrder(sink.schema(), changes);
    if (byPosition.isEmpty()) {
      return Optional.empty();
    }
    Landing landing = movedKeys.computeIfAbsent(byPosition.get(),
        o -> Landing.of(new ChangeSemantics(o, semantics.deleteMode(), semantics.deletedKeysMax()), metrics));
    for (StructField column : landing.order().ownColumns()) {
      sink.addOwnColumn(column, "topic(s) " + movedKeyTopics + " grew, so changes of a key are ordered by "
          + byPosition.get().configValue());
    }
    return Optional.of(landing);
  }

  @Override
  public void landed(TableSink sink) {
    SequenceColumnLanding sequenceColumn = decidedSequenced.remove(sink.name());
    if (sequenceColumn != null) {
      decided.remove(sink.name());
      sequenceColumn.landed(sink.name());
      return;
    }
    Landing landing = decided.remove(sink.name());
    if (landing != null && landing.semantics().merges()) {
      landing.merge().landed(sink.name());
    }
  }
}
