package io.mergesink.ingest.buffer;

import io.mergesink.ingest.decode.ChangeEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The changes of an append table: every event in offset order, truncates included (an append
 * table records a truncate as a row, it does not apply it).
 */
final class ChangeLog implements PendingChanges {
  private final List<ChangeEvent> events = new ArrayList<>();
  private long bytes;

  @Override
  public void add(ChangeEvent event) {
    events.add(event);
    bytes += SizeEstimator.changeBytes(event);
  }

  @Override
  public OptionalLong truncatedAt() {
    return OptionalLong.empty();
  }

  @Override
  public List<ChangeEvent> changes() {
    return List.copyOf(events);
  }

  @Override
  public long changeCount() {
    return events.size();
  }

  @Override
  public long estimatedBytes() {
    return bytes;
  }
}
