package io.mergesink.ingest.decode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.connect.data.Struct;

/**
 * An event of Debezium's transaction topic ({@code <topic.prefix>.transaction}): {@code BEGIN} and
 * {@code END} of a source transaction. An {@code END} says how many change events the transaction
 * had, in all and per table ({@code data_collections[{data_collection, event_count}]}, tables named
 * as the source names them: {@code schema.table} for PostgreSQL, {@code db.table} for MySQL,
 * {@code db.schema.table} for SQL Server).
 *
 * @param id the transaction's id as all its events name it ({@link TransactionIds}: PostgreSQL's xid)
 * @param eventCount the transaction's change events; 0 for a {@code BEGIN}
 * @param tableCounts change events per table, for an {@code END}; empty for a {@code BEGIN}
 * @param timestampMs the event's {@code ts_ms} (the source's time of the transaction's commit, for an
 *     {@code END}); 0 when the event has none
 */
public record TransactionEvent(Status status, String id, long eventCount, Map<String, Long> tableCounts, long timestampMs) {
  /** Whether the transaction begins or ends. */
  public enum Status { BEGIN, END }

  public TransactionEvent {
    Objects.requireNonNull(status, "status");
    id = TransactionIds.of(Objects.requireNonNull(id, "id"));
    tableCounts = Map.copyOf(tableCounts);
  }

  /** An event without a time. */
  public TransactionEvent(Status status, String id, long eventCount, Map<String, Long> tableCounts) {
    this(status, id, eventCount, tableCounts, 0);
  }

  /**
   * The transaction event in {@code value}: a {@link Struct} (a converter with schemas) or a map
   * (schemaless JSON, or JSON read without a converter, {@code {schema, payload}} unwrapped).
   *
   * @return empty when {@code value} is not a transaction event (no {@code status} and {@code id})
   * @throws IllegalArgumentException a status other than {@code BEGIN} and {@code END}
   */
  public static Optional<TransactionEvent> of(Object value) {
    Object payload = value instanceof Map<?, ?> map && map.containsKey("payload") && map.containsKey("schema")
        ? map.get("payload") : value;
    Object status = field(payload, "status");
    Object id = field(payload, "id");
    if (status == null || id == null) {
      return Optional.empty();
    }
    Status parsed;
    try {
      parsed = Status.valueOf(status.toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("transaction " + id + " has status '" + status + "', expected BEGIN or END", e);
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    if (field(payload, "data_collections") instanceof List<?> collections) {
      for (Object collection : collections) {
        if (field(collection, "data_collection") instanceof String name && field(collection, "event_count") instanceof Number count) {
          counts.merge(name, count.longValue(), Long::sum);
        }
      }
    }
    long eventCount = field(payload, "event_count") instanceof Number count ? count.longValue() : 0;
    return Optional.of(new TransactionEvent(parsed, id.toString(), eventCount, counts, longOf(field(payload, "ts_ms"))));
  }

  /** The source transaction of a Debezium {@code transaction} block, or null when {@code block} is none. */
  static SourceTransaction transactionOf(Object block) {
    Object id = field(block, "id");
    if (id == null) {
      return null;
    }
    return new SourceTransaction(id.toString(), longOf(field(block, "total_order")), longOf(field(block, "data_collection_order")));
  }

  private static long longOf(Object value) {
    return value instanceof Number number ? number.longValue() : 0;
  }

  private static Object field(Object container, String name) {
    if (container instanceof Struct struct) {
      return struct.schema().field(name) == null ? null : struct.get(name);
    }
    return container instanceof Map<?, ?> map ? map.get(name) : null;
  }
}
