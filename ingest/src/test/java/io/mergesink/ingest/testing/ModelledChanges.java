package io.mergesink.ingest.testing;

import static io.mergesink.ingest.testing.ChangeRecords.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Changes of one table in partition 0 at consecutive offsets, and the rows they leave (the model the table must equal). */
public final class ModelledChanges {
  private final String table;
  private final Map<Long, Row> model = new HashMap<>();
  private long offset;

  public ModelledChanges(String table) {
    this.table = table;
  }

  /** Upserts keys {@code from} to {@code to}, named {@code prefix} and the key. */
  public void upserts(IngestEngine engine, long from, long to, String prefix) {
    for (long id = from; id <= to; id++) {
      model.put(id, row(id, prefix + id));
      engine.accept(ChangeRecords.upsert(0, offset++, table, id, prefix + id));
    }
  }

  public void delete(IngestEngine engine, long id) {
    model.remove(id);
    engine.accept(ChangeRecords.delete(0, offset++, table, id));
  }

  /**
   * Two flushes of one engine (keys 0 to 9 upserted; 3 to 5 upserted again and 7 deleted), then, in
   * an engine started again, which must resume at {@link #nextOffset()}, keys 5 and 6 upserted.
   */
  public void acrossARestart(Supplier<IngestEngine> engines) {
    KafkaPartition p0 = new KafkaPartition(ChangeRecords.TOPIC, 0);
    try (IngestEngine engine = engines.get()) {
      engine.open(List.of(p0));
      upserts(engine, 0, 9, "v");
      engine.flush();
      upserts(engine, 3, 5, "w");
      delete(engine, 7);
      engine.flush();
    }
    try (IngestEngine engine = engines.get()) {
      assertThat(engine.open(List.of(p0))).containsEntry(p0, offset);
      engine.seeksApplied();
      upserts(engine, 5, 6, "x");
      engine.flush();
    }
  }

  /** The rows the changes leave. */
  public Collection<Row> rows() {
    return model.values();
  }

  /** The offset of the next change. */
  public long nextOffset() {
    return offset;
  }
}
