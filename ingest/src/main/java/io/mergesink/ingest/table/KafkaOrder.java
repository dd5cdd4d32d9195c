package io.mergesink.ingest.table;

import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka order as a {@link VersionOrder}, the degenerate sequence: a change's place in the flush
 * (partition after partition, each in offset order). No version keeps it, so every change lands
 * after the versions the table holds, and a change of a key follows the ones before it in the flush.
 * No two changes share a place, so nothing is ever stale.
 */
final class KafkaOrder implements VersionOrder {
  /** The place of each change of the change set being decided. */
  private final Map<ChangeEvent, Long> places = new IdentityHashMap<>();

  @Override
  public void deciding(List<TableChanges> changes) {
    places.clear();
    long place = 0;
    for (TableChanges partition : changes) {
      for (ChangeEvent event : partition.changes()) {
        places.put(event, place++);
      }
    }
  }

  @Override
  public Object sequence(ChangeEvent event) {
    return places.get(event);
  }

  @Override
  public String column() {
    return null;
  }

  @Override
  public boolean tracesDeletes() {
    return false;
  }

  @Override
  public void skipped(String where, Object key, Object sequence, Object newer) {}

  @Override
  public void decided(String table) {
    places.clear();
  }

  @Override
  public void landed(String table) {}
}
