package io.mergesink.ingest.format.iceberg;

import static io.mergesink.ingest.testing.ChangeRecords.row;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.testing.ChangeRecords;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** Changes of one table in partition 0 at consecutive offsets, and the rows they leave (the model the table must equal). */
final class ModelledChanges {
  private final String table;
  private final Map<Long, Row> model = new HashMap<>();
  private long offset;

  ModelledChanges(String table) {
    this.table = table;
  }

  /** Upserts keys {@code from} to {@code to}, named {@code prefix} and the key. */
  void upserts(IngestEngine engine, long from, long to, String prefix) {
    for (long id = from; id <= to; id++) {
      model.put(id, row(id, prefix + id));
      engine.accept(ChangeRecords.upsert(0, offset++, table, id, prefix + id));
    }
  }

  void delete(IngestEngine engine, long id) {
    model.remove(id);
    engine.accept(ChangeRecords.delete(0, offset++, table, id));
  }

  /** The rows the changes leave. */
  Collection<Row> rows() {
    return model.values();
  }

  /** The offset of the next change. */
  long nextOffset() {
    return offset;
  }
}
