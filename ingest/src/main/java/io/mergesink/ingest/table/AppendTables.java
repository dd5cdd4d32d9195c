package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.PendingChanges;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.options.AppendTombstones;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Append tables ({@code write.mode=append}, docs/design.md, "Append tables"): every change event,
 * deletes and truncates included, becomes one audit row ({@link AuditColumns}); nothing is
 * replaced, so there is no key to coalesce, fit or look up. The Kafka tombstone after a delete is
 * the same change again: with {@link AppendTombstones#SKIP_AFTER_DELETE} it records nothing
 * ({@link DeleteTombstones}).
 */
final class AppendTables implements TableKind {
  private final AuditColumns audit = new AuditColumns();
  /** Null when every tombstone is recorded. */
  private final DeleteTombstones deleteTombstones;

  AppendTables(AppendTombstones tombstones) {
    this.deleteTombstones = tombstones == AppendTombstones.SKIP_AFTER_DELETE ? new DeleteTombstones() : null;
  }

  @Override
  public PendingChanges newPendingChanges() {
    return PendingChanges.inOffsetOrder();
  }

  /** Every event is a row, so any event creates its table. */
  @Override
  public boolean createsTable(ChangeEvent event) {
    return true;
  }

  @Override
  public List<String> newTableKey(ChangeEvent event, List<String> configuredKey) {
    return List.of();
  }

  /**
   * The event's audit row schema, with every column but the record key's and the audit columns
   * nullable, since the row of a delete may hold its key only.
   */
  @Override
  public StructType newTableSchema(ChangeEvent event, List<String> key) {
    List<String> recordKey = event.keySchema() == null ? List.of() : event.keySchema().fieldNames();
    List<StructField> fields = new ArrayList<>();
    for (StructField field : audit.schema(event).fields()) {
      boolean keepsNullability = recordKey.contains(field.name()) || AuditColumns.isAuditColumn(field.name());
      fields.add(keepsNullability ? field : new StructField(field.name(), field.type(), true, field.metadata()));
    }
    return new StructType(fields);
  }

  @Override
  public List<String> keyColumns(List<String> recordedKey, List<String> configuredKey) {
    return List.of();
  }

  /** A tombstone right after the delete of its key, unless every tombstone is recorded. */
  @Override
  public boolean changesNothing(TableSink sink, ChangeEvent event, long previousOffset, boolean previousInTable)
      throws IOException {
    return deleteTombstones != null && event.tombstone()
        && deleteTombstones.followsDelete(sink, event, previousOffset, previousInTable);
  }

  /** Every event becomes an upsert of its audit row. */
  @Override
  public ChangeEvent prepare(TableSink sink, ChangeEvent event) throws IOException {
    StructType schema = audit.schema(event);
    sink.makeRoomFor(schema, event);
    Row row = sink.fit(schema, audit.row(event));
    if (deleteTombstones != null) {
      deleteTombstones.recorded(sink, event);
    }
    return event.with(Op.UPSERT, Row.of(), StructType.of(), row, sink.schema(), null);
  }

  /** Every buffered row, partition after partition, each in offset order. */
  @Override
  public ChangeSet assemble(TableSink sink, List<TableChanges> changes, Map<String, TxnChange> txns) {
    // rows are re-fitted to the sink's current schema; the writer pads them if the table gains columns before they land
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(sink.schema());
    for (TableChanges partition : changes) {
      for (ChangeEvent event : partition.changes()) {
        builder.upsert(sink.refit(event.valueSchema(), event.value()));
      }
    }
    txns.forEach(builder::txn);
    return builder.build();
  }
}
