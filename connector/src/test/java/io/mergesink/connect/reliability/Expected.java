package io.mergesink.connect.reliability;

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
import org.apache.kafka.connect.data.Struct;

/**
 * What a table must hold at the end of a scenario, row by row, each row identified the way its
 * table kind identifies it: upsert tables by primary key (one live row per key), append tables by
 * the Kafka position of the event the row records (one row per change event). Rows are column name →
 * value; a column the table has and a row lacks (added after the row was written) must read null.
 *
 * @param <K> what identifies a row
 */
final class Expected<K> {
  /** The audit columns of append tables. */
  static final String OP = "_op";
  static final String TIMESTAMP = "_ts_ms";
  static final String TOPIC = "_kafka_topic";
  static final String PARTITION = "_kafka_partition";
  static final String OFFSET = "_kafka_offset";

  /** Where a Kafka record is: what identifies a row of an append table. */
  record Position(String topic, int partition, long offset) {
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

  /** The rows of an upsert table: primary key {@code id} → the row's columns. */
  static Expected<Long> upserts(Map<Long, Map<String, Object>> rows) {
    return new Expected<>("primary key " + CustomerTable.ID, row -> (Long) row.get(CustomerTable.ID), rows);
  }

  /**
   * {@link #upserts} from positional rows with the columns {@code names}. Such models (of
   * {@code CustomerEvents} streams) say nothing of the source positions the sink keeps in a table
   * once it takes the table's topic for grown (docs/design.md, "Topics that grow"): those columns
   * are not checked; the reliability matrix checks them.
   */
  static Expected<Long> upserts(List<String> names, Map<Long, Row> rows) {
    Map<Long, Map<String, Object>> named = new HashMap<>();
    rows.forEach((id, row) -> {
      Map<String, Object> columns = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) {
        columns.put(names.get(i), row.get(i));
      }
      named.put(id, columns);
    });
    return new Expected<>("primary key " + CustomerTable.ID, row -> (Long) row.get(CustomerTable.ID), named, row -> false,
        row -> false, Set.of(), Set.of(UpsertOrder.LSN_COLUMN, UpsertOrder.TS_MS_COLUMN));
  }

  /**
   * The rows of a history table: (primary key {@code id}, {@code __valid_from}) → the version's row
   * with {@code __valid_from}, {@code __valid_to} and {@code __current}. A version landed twice is
   * two rows of one identity.
   */
  static Expected<SourceTable.VersionId> versions(Map<SourceTable.VersionId, Map<String, Object>> rows) {
    return new Expected<>("primary key " + CustomerTable.ID + " and " + SourceTable.VALID_FROM,
        row -> new SourceTable.VersionId((Long) row.get(CustomerTable.ID), (Long) row.get(SourceTable.VALID_FROM)), rows);
  }

  /** The rows of an append table: Kafka position → the event's row with its audit columns. */
  static Expected<Position> events(Map<Position, Map<String, Object>> rows) {
    return new Expected<>("Kafka position", row -> new Position((String) row.get(TOPIC), (Integer) row.get(PARTITION),
        (Long) row.get(OFFSET)), rows);
  }

  /**
   * The row an append table holds for a record (docs/design.md, "The reliability matrix"): the new
   * row of a create or update, the {@code before} row of a delete (its key columns when it has none,
   * and for a tombstone with no delete of its key just before it), no columns of the table for a truncate; then {@code _op}, {@code _ts_ms}
   * (the event's time, the record's for a tombstone) and the record's topic, partition and offset.
   */
  static Map<String, Object> eventRow(String topic, int partition, long offset, long recordTimestamp, Struct key, Struct value) {
    Map<String, Object> row = new LinkedHashMap<>();
    String op;
    long timestamp;
    if (value == null) {
      row.putAll(CustomerTable.columns(key));
      op = "d";
      timestamp = recordTimestamp;
    } else {
      op = value.getString("op");
      timestamp = value.getInt64("ts_ms");
      Struct image = switch (op) {
        case "c", "r", "u" -> value.getStruct("after");
        case "d" -> value.getStruct("before") != null ? value.getStruct("before") : key;
        default -> null;
      };
      if (image != null) {
        row.putAll(CustomerTable.columns(image));
      }
    }
    row.put(OP, op);
    row.put(TIMESTAMP, timestamp);
    row.put(TOPIC, topic);
    row.put(PARTITION, partition);
    row.put(OFFSET, offset);
    return row;
  }

  /**
   * Whether a record ({@code key}, {@code value}) is the Kafka tombstone Debezium sends right after
   * the delete of its key ({@code previousKey}, {@code previousValue}: the record before it in its
   * partition, null for none): an append table records that change once, with the delete's row
   * (docs/design.md, "Append tables").
   */
  static boolean isTombstoneOfDelete(Object key, Object value, Object previousKey, Object previousValue) {
    return value == null && previousValue instanceof Struct delete && "d".equals(delete.getString("op")) && key.equals(previousKey);
  }

  /** How rows are identified, for messages. */
  String identifiedBy() {
    return identifiedBy;
  }

  /** What identifies {@code row} (a table's row or an expected one). */
  K identify(Map<String, Object> row) {
    return identity.apply(row);
  }

  Map<K, Map<String, Object>> rows() {
    return rows;
  }

  /** These expectations and {@code more} rows (written by another writer). */
  Expected<K> plus(Map<K, Map<String, Object>> more) {
    Map<K, Map<String, Object>> all = new HashMap<>(rows);
    all.putAll(more);
    return new Expected<>(identifiedBy, identity, all, partial, optional, nullable, unchecked);
  }

  /**
   * These expectations where the expected rows {@code partial} accepts say only what the columns
   * they list must hold: a table row may hold anything in the others (e.g. the values a
   * soft-deleted row kept).
   */
  Expected<K> partialWhere(Predicate<Map<String, Object>> partial) {
    return new Expected<>(identifiedBy, identity, rows, partial, optional, nullable, unchecked);
  }

  /** These expectations where the expected rows {@code optional} accepts may be missing from the table. */
  Expected<K> optionalWhere(Predicate<Map<String, Object>> optional) {
    return new Expected<>(identifiedBy, identity, rows, partial, optional, nullable, unchecked);
  }

  /**
   * These expectations where a table row may hold null in {@code columns} where the expected row
   * has a value: the source positions the sink keeps in a table once its topic grew are null in
   * rows no change has written since (docs/design.md, "Topics that grow").
   */
  Expected<K> nullableIn(Set<String> columns) {
    return new Expected<>(identifiedBy, identity, rows, partial, optional, columns, unchecked);
  }

  /** Whether {@code expected} (one of these rows) may be missing from the table. */
  boolean isOptional(Map<String, Object> expected) {
    return optional.test(expected);
  }

  /** Only the rows {@code keep} accepts. */
  Expected<K> only(Predicate<Map<String, Object>> keep) {
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
  boolean matches(Map<String, Object> expected, Map<String, Object> actual) {
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
