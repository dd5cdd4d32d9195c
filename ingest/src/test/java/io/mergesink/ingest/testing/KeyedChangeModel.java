package io.mergesink.ingest.testing;

import static io.mergesink.ingest.testing.ChangeRecords.row;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.record.KafkaRecord;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upserts and deletes of one table of {@link ChangeRecords}, at the partitions and offsets a test
 * gives, and the rows they leave: the model a keyed table must equal. Tasks on several threads may
 * share one (their keys apart).
 */
public final class KeyedChangeModel {
  private final String table;
  private final Map<Long, Row> rows = new ConcurrentHashMap<>();

  public KeyedChangeModel(String table) {
    this.table = table;
  }

  /** Upserts at offsets {@code from} to {@code to} of {@code partition}: key offset % 4 + 10 × partition, named prefix + offset. */
  public void upserts(IngestEngine engine, int partition, long from, long to, String prefix) {
    for (long offset = from; offset <= to; offset++) {
      engine.accept(upsert(partition, offset, offset % 4 + 10L * partition, prefix + offset));
    }
  }

  /** The upsert of {@code id} at {@code offset} of {@code partition}, entered in the model. */
  public KafkaRecord upsert(int partition, long offset, long id, String name) {
    rows.put(id, row(id, name));
    return ChangeRecords.upsert(partition, offset, table, id, name);
  }

  public void delete(IngestEngine engine, int partition, long offset, long id) {
    rows.remove(id);
    engine.accept(ChangeRecords.delete(partition, offset, table, id));
  }

  /** The rows the changes leave. */
  public Collection<Row> rows() {
    return rows.values();
  }
}
