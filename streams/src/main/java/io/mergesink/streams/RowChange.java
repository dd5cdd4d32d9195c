package io.mergesink.streams;

import java.util.Objects;
import org.apache.kafka.connect.data.Struct;

/**
 * A change a Streams application builds itself (after its own joins, filters and maps) rather than
 * a Debezium envelope: the row of an upsert, or a delete. The key is the Streams record's key, as a
 * Debezium record's key is its table's primary key ({@code primary.key.mode=record_key}), or the
 * {@code primary.key.fields} of the row ({@code record_value}).
 *
 * <p>The engine reads an upsert as a flattened row (every field a column) and a delete as a
 * tombstone of the record key; so a delete carries no row, and append tables record it without a
 * before image.
 *
 * @param op whether the row is upserted or the key deleted
 * @param row the row of an upsert; null for a delete
 */
public record RowChange(Op op, Struct row) {
  /** What a change does to its key's row. */
  public enum Op {
    UPSERT,
    DELETE
  }

  public RowChange {
    Objects.requireNonNull(op, "op");
    if ((op == Op.UPSERT) != (row != null)) {
      throw new IllegalArgumentException(op == Op.UPSERT ? "an upsert needs its row" : "a delete carries no row (its key says what is deleted)");
    }
  }

  /** Inserts {@code row}, or replaces the row of its key. */
  public static RowChange upsert(Struct row) {
    return new RowChange(Op.UPSERT, Objects.requireNonNull(row, "row"));
  }

  /** Deletes the row of the record's key. */
  public static RowChange delete() {
    return new RowChange(Op.DELETE, null);
  }
}
