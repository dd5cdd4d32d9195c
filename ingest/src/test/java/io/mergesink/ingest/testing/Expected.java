package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.options.UpsertOrder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a table must hold at the end of a scenario, row by row, each row identified the way its
 * table kind identifies it: upsert tables by primary key (one live row per key), append tables by
 * the Kafka position of the event the row records (one row per change event). Rows are column name →
 * value; a column the table has and a row lacks (added after the row was written) must read null.
 * {@link TableAudit} compares a table with them.
 *
 * @param <K> what identifies a row
 */
public final class Expected<K> {
  /** The primary key column of the customer tables the tests write. */
  public static final String ID = "id";
  /** The audit columns of append tables. */
  public static final String OP = "_op";
  public static final String TIMESTAMP = "_ts_ms";
  public static final String TOPIC = "_kafka_topic";
  public static final String PARTITION = "_kafka_partition";
  public static final String OFFSET = "_kafka_offset";

  /** Where a Kafka record is: what identifies a row of an append table. */
  public record Position(String topic, int partition, long offset) {
    @Override
    public String toString() {
      return topic + "-" + partition + "@" + offset;
    }
  }

  private final String identifiedBy;
  private final Function<Map<String, Object>, K> identity;
  private final Map<K, Map<String, Object>> rows;
  private final Predicate<Map<String, Object>> partial;
  private final Predicate<Map<String, Object>> optional;
  private final Set<String> nullable;
  private final Set<String> unchecked;

  private Expected(String identifiedBy, Function<Map<String, Object>, K> identity, Map<K, Map<String, Object>> rows) {
    this(identifiedBy, identity, rows, row -> false, row -> false, Set.of(), Set.of());
  }

  private Expected(String identifiedBy, Function<Map<String, Object>, K> identity, Map<K, Map<String, Object>> rows,
      Predicate<Map<String, Object>> partial, Predicate<Map<String, Object>> optional, Set<String> nullable, Set<String> unchecked) {
    this.identifiedBy = identifiedBy;
    this.identity = identity;
    this.rows = Map.copyOf(rows);
    this.partial = partial;
    this.optional = optional;
    this.nullable = Set.copyOf(nullable);
    this.unchecked = Set.copyOf(unchecked);
  }

  /**
   * The rows of a table identified by {@code identity}, described as {@code identifiedBy} in
   * messages ("primary key id and __valid_from").
   */
  public static <K> Expected<K> of(String identifiedBy, Function<Map<String, Object>, K> identity,
      Map<K, Map<String, Object>> rows) {
    return new Expected<>(identifiedBy, identity, rows);
  }

  /** The rows of an upsert table: primary key {@value #ID} → the row's columns. */
  public static Expected<Long> upserts(Map<Long, Map<String, Object>> rows) {
    return new Expected<>("primary key " + ID, row -> (Long) row.get(ID), rows);
  }

  /**
   * {@link #upserts} from positional rows with the columns {@code names}. Such models (of
   * {@code CustomerEvents} streams) say nothing of the source positions the sink keeps in a table
   * once it takes the table's topic for grown (docs/design.md, "Topics that grow"): those columns
   * are not checked; the reliability matrix checks them.
   */
  public static Expected<Long> upserts(List<String> names, Map<Long, Row> rows) {
    Map<Long, Map<String, Object>> named = new HashMap<>();
    rows.forEach((id, row) -> {
      Map<String, Object> columns = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) {
        columns.put(names.get(i), row.get(i));
      }
      named.put(id, columns);
    });
    return new Expected<>("primary key " + ID, row -> (Long) row.get(ID), named, row -> false,
        row -> false, Set.of(), Set.of(UpsertOrder.LSN_COLUMN, UpsertOrder.TS_MS_COLUMN));
  }

  /** The rows of an append table: Kafka position → the event's row with its audit columns. */
  public static Expected<Position> events(Map<Position, Map<String, Object>> rows) {
    return new Expected<>("Kafka position", row -> new Position((String) row.get(TOPIC), (Integer) row.get(PARTITION),
        (Long) row.get(OFFSET)), rows);
  }

  /** How rows are identified, for messages. */
  public String identifiedBy() {
    return identifiedBy;
  }

  /** What identifies {@code row} (a table's row or an expected one). */
  public K identify(Map<String, Object> row) {
    return identity.apply(row);
  }

  public Map<K, Map<String, Object>> rows() {
    return rows;
  }

  /** These expectations and {@code more} rows (written by another writer). */
  public Expected<K> plus(Map<K, Map<String, Object>> more) {
    Map<K, Map<String, Object>> all = new HashMap<>(rows);
    all.putAll(more);
    return new Expected<>(identifiedBy, identity, all, partial, optional, nullable, unchecked);
  }

  /**
   * These expectations where the expected rows {@code partial} accepts say only what the columns
   * they list must hold: a table row may hold anything in the others (e.g. the values a
   * soft-deleted row kept).
   */
  public Expected<K> partialWhere(Predicate<Map<String, Object>> partial) {
    return new Expected<>(identifiedBy, identity, rows, partial, optional, nullable, unchecked);
  }

  /**
   * These expectations checking of each row only the columns it holds non-null: a table whose merge
   * engine updates rows partially (Paimon's {@code partial-update}) keeps a column's older value where
   * a change leaves it null.
   */
  public Expected<K> nonNullColumnsOnly() {
    Map<K, Map<String, Object>> certain = new HashMap<>();
    rows.forEach((key, row) -> {
      Map<String, Object> columns = new LinkedHashMap<>();
      row.forEach((column, value) -> {
        if (value != null) {
          columns.put(column, value);
        }
      });
      certain.put(key, columns);
    });
    return new Expected<>(identifiedBy, identity, certain, any -> true, optional, nullable, unchecked);
  }

  /** These expectations where the expected rows {@code optional} accepts may be missing from the table. */
  public Expected<K> optionalWhere(Predicate<Map<String, Object>> optional) {
    return new Expected<>(identifiedBy, identity, rows, partial, optional, nullable, unchecked);
  }

  /**
   * These expectations where a table row may hold null in {@code columns} where the expected row
   * has a value: the source positions the sink keeps in a table once its topic grew are null in
   * rows no change has written since (docs/design.md, "Topics that grow").
   */
  public Expected<K> nullableIn(Set<String> columns) {
    return new Expected<>(identifiedBy, identity, rows, partial, optional, columns, unchecked);
  }

  /** Whether {@code expected} (one of these rows) may be missing from the table. */
  public boolean isOptional(Map<String, Object> expected) {
    return optional.test(expected);
  }

  /** Only the rows {@code keep} accepts. */
  public Expected<K> only(Predicate<Map<String, Object>> keep) {
    Map<K, Map<String, Object>> kept = new HashMap<>();
    rows.forEach((id, row) -> {
      if (keep.test(row)) {
        kept.put(id, row);
      }
    });
    return new Expected<>(identifiedBy, identity, kept, partial, optional, nullable, unchecked);
  }

  /**
   * Whether {@code actual} (a table row) holds what {@code expected} (one of these rows) says,
   * columns missing on either side read as null, or for a {@link #partialWhere partial} row only
   * the columns it lists.
   */
  public boolean matches(Map<String, Object> expected, Map<String, Object> actual) {
    if (partial.test(expected)) {
      return expected.entrySet().stream().allMatch(column -> holds(column.getKey(), column.getValue(), actual.get(column.getKey())));
    }
    return matchesWhole(expected, actual);
  }

  /** Whether {@code actual} (a table row) holds what {@code expected} says, columns missing on either side read as null. */
  private boolean matchesWhole(Map<String, Object> expected, Map<String, Object> actual) {
    for (Map.Entry<String, Object> column : actual.entrySet()) {
      if (!holds(column.getKey(), expected.get(column.getKey()), column.getValue())) {
        return false;
      }
    }
    return expected.entrySet().stream().filter(column -> !actual.containsKey(column.getKey()))
        .allMatch(column -> holds(column.getKey(), column.getValue(), null));
  }

  /** Whether a table row's {@code actual} value of {@code column} is what {@code expected} says, or a null it may hold. */
  private boolean holds(String column, Object expected, Object actual) {
    return Objects.equals(expected, actual) || (actual == null && nullable.contains(column)) || unchecked.contains(column);
  }
}
