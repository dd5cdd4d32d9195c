package io.mergesink.ingest.options;

import java.util.Objects;

/**
 * {@code upsert.order.by}: which sequence decides between two changes of a key (docs/design.md,
 * "Ordering and soft deletes"). Immutable.
 *
 * @param kind where the sequence comes from
 * @param column the table column that holds the sequence: the sink's own column for the source
 *     positions, the named column otherwise; null for {@link Kind#NONE}
 */
public record UpsertOrder(Kind kind, String column) {
  /** The column that holds {@code source.lsn} in tables ordered by it. */
  public static final String LSN_COLUMN = "__source_lsn";
  /** The column that holds {@code source.ts_ms} in tables ordered by it. */
  public static final String TS_MS_COLUMN = "__source_ts_ms";
  /** Kafka order: the last change delivered wins. */
  public static final UpsertOrder NONE = new UpsertOrder(Kind.NONE, null);

  /** Where a change's sequence comes from. */
  public enum Kind {
    /** No sequence: Kafka order. */
    NONE,
    /** PostgreSQL's {@code source.lsn}, kept in {@link #LSN_COLUMN}. */
    SOURCE_LSN,
    /** Debezium's {@code source.ts_ms} (the change's time in the database), kept in {@link #TS_MS_COLUMN}. */
    SOURCE_TS_MS,
    /** A column of the table, which the source writes (a version or an update time). */
    COLUMN
  }

  public UpsertOrder {
    Objects.requireNonNull(kind, "kind");
    if ((kind == Kind.NONE) != (column == null)) {
      throw new IllegalArgumentException(kind + " ordering " + (column == null ? "needs" : "takes no") + " column");
    }
  }

  /**
   * {@code none}, {@code source.lsn}, {@code source.ts_ms}, or the name of a column.
   *
   * @throws IllegalArgumentException the value is blank, or names another {@code source.} field
   */
  public static UpsertOrder parse(String value) {
    String name = value == null ? "" : value.trim();
    return switch (name) {
      case "none" -> NONE;
      case "source.lsn" -> new UpsertOrder(Kind.SOURCE_LSN, LSN_COLUMN);
      case "source.ts_ms" -> new UpsertOrder(Kind.SOURCE_TS_MS, TS_MS_COLUMN);
      default -> {
        if (name.isEmpty() || name.startsWith("source.")) {
          throw new IllegalArgumentException("invalid value '" + value + "' for upsert.order.by: expected none, source.lsn, "
              + "source.ts_ms or the name of a column of the table");
        }
        yield new UpsertOrder(Kind.COLUMN, name);
      }
    };
  }

  /** Whether the sink adds {@link #column()} to the tables (the source positions), rather than the source writing it. */
  public boolean sinkColumn() {
    return kind == Kind.SOURCE_LSN || kind == Kind.SOURCE_TS_MS;
  }

  /** The configuration value. */
  public String configValue() {
    return switch (kind) {
      case NONE -> "none";
      case SOURCE_LSN -> "source.lsn";
      case SOURCE_TS_MS -> "source.ts_ms";
      case COLUMN -> column;
    };
  }
}
