package io.mergesink.ingest.options;

import java.util.Objects;

/**
 * How changes of keyed tables apply beyond "the last one delivered wins" (docs/design.md, "Ordering
 * and soft deletes"). Immutable.
 *
 * @param orderBy {@code upsert.order.by}
 * @param deleteMode {@code delete.mode}
 * @param deletedKeysMax {@code upsert.order.deleted.keys.max}: per table and task, how many keys of
 *     hard deletes are remembered with their sequences, so that an older change of a key arriving
 *     after its delete does not bring the row back
 */
public record ChangeSemantics(UpsertOrder orderBy, DeleteMode deleteMode, int deletedKeysMax) {
  public static final int DEFAULT_DELETED_KEYS_MAX = 100_000;
  /** Kafka order, hard deletes: blind upserts and deletes, the default. */
  public static final ChangeSemantics DEFAULT = new ChangeSemantics(UpsertOrder.NONE, DeleteMode.HARD, DEFAULT_DELETED_KEYS_MAX);

  public ChangeSemantics {
    Objects.requireNonNull(orderBy, "orderBy");
    Objects.requireNonNull(deleteMode, "deleteMode");
    if (deletedKeysMax < 0) {
      throw new IllegalArgumentException("upsert.order.deleted.keys.max must not be negative, found " + deletedKeysMax);
    }
  }

  /** Whether changes go through the MERGE engine (ordering or soft deletes) instead of blind upserts and deletes. */
  public boolean merges() {
    return orderBy.kind() != UpsertOrder.Kind.NONE || deleteMode == DeleteMode.SOFT;
  }

  /** Whether changes carry a sequence. */
  public boolean ordered() {
    return orderBy.kind() != UpsertOrder.Kind.NONE;
  }
}
