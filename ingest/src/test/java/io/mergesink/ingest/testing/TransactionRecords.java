package io.mergesink.ingest.testing;

import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import io.mergesink.ingest.transaction.KafkaTransactionEnds;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Debezium change events of a bank (tables {@code accounts} and {@code transfers} of schema
 * {@code public}, rows {@code id}, {@code amount}) inside source transactions, as the PostgreSQL
 * connector sends them with {@code provide.transaction.metadata=true}, and the {@code END} events of
 * its transaction topic, written as the worker's JsonConverter writes them and read back as the
 * task's transaction topic consumer reads them ({@link KafkaTransactionEnds#decode}).
 */
public final class TransactionRecords implements TransactionEnds {
  public static final String TOPIC = "bank.changes";
  public static final String TRANSACTION_TOPIC = "bank.transaction";
  private static final Schema KEY = SchemaBuilder.struct().name("bank.Key").field("id", Schema.INT64_SCHEMA).build();
  private static final Schema ROW = SchemaBuilder.struct().name("bank.Value").optional().field("id", Schema.INT64_SCHEMA)
      .field("amount", Schema.OPTIONAL_INT64_SCHEMA).build();
  static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("db", Schema.STRING_SCHEMA).field("schema", Schema.STRING_SCHEMA).field("table", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.INT64_SCHEMA).build();
  static final Schema BLOCK = SchemaBuilder.struct().name("event.block").optional().version(1)
      .field("id", Schema.STRING_SCHEMA).field("total_order", Schema.INT64_SCHEMA)
      .field("data_collection_order", Schema.INT64_SCHEMA).build();
  private static final Schema ENVELOPE = SchemaBuilder.struct().name("bank.Envelope").version(2)
      .field("before", ROW).field("after", ROW).field("source", SOURCE).field("transaction", BLOCK)
      .field("op", Schema.STRING_SCHEMA).field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();
  static final Schema COLLECTION = SchemaBuilder.struct().field("data_collection", Schema.STRING_SCHEMA)
      .field("event_count", Schema.INT64_SCHEMA).build();
  /** The value schema of the transaction topic's events. */
  public static final Schema END = SchemaBuilder.struct().name("io.debezium.connector.common.TransactionMetadataValue")
      .field("status", Schema.STRING_SCHEMA).field("id", Schema.STRING_SCHEMA).field("event_count", Schema.OPTIONAL_INT64_SCHEMA)
      .field("data_collections", SchemaBuilder.array(COLLECTION).optional().build()).field("ts_ms", Schema.INT64_SCHEMA).build();

  private final Map<String, TransactionEvent> ends = new ConcurrentHashMap<>();
  private final List<Change> open = new ArrayList<>();
  private String transaction;
  private long nextOffset;

  /** A change of a transaction being written. */
  private record Change(String table, long id, long amount) {}

  /** Records start at {@code offset} of partition 0. */
  public TransactionRecords(long offset) {
    this.nextOffset = offset;
  }

  /** Begins transaction {@code id}: the changes that follow belong to it. */
  public TransactionRecords begin(String id) {
    transaction = id;
    open.clear();
    return this;
  }

  /** Writes the records of transaction {@code id} again from {@code offset}, as a consumer that went back reads them. */
  public TransactionRecords rewind(long offset, String id) {
    nextOffset = offset;
    return begin(id);
  }

  /** The record of the next change of the transaction: {@code table}'s row {@code id} now holds {@code amount}. */
  public KafkaRecord change(String table, long id, long amount) {
    open.add(new Change(table, id, amount));
    long tableOrder = open.stream().filter(change -> change.table().equals(table)).count();
    long offset = nextOffset++;
    Struct source = new Struct(SOURCE).put("db", "bank").put("schema", "public").put("table", table).put("ts_ms", offset);
    Struct block = new Struct(BLOCK).put("id", transaction).put("total_order", (long) open.size())
        .put("data_collection_order", tableOrder);
    Struct value = new Struct(ENVELOPE).put("after", new Struct(ROW).put("id", id).put("amount", amount)).put("source", source)
        .put("transaction", block).put("op", "u").put("ts_ms", offset);
    return new KafkaRecord(new KafkaPartition(TOPIC, 0), offset, TOPIC, offset, KEY, new Struct(KEY).put("id", id), ENVELOPE, value,
        RecordHeaders.NONE);
  }

  /**
   * The transaction's {@code END} reaches the transaction topic and the task's consumer reads it
   * ({@link #end(String)} knows it from now on).
   *
   * @return the event, of schema {@link #END}, as Debezium writes it to the transaction topic
   */
  public Struct end() {
    Map<String, Long> counts = new LinkedHashMap<>();
    open.forEach(change -> counts.merge("public." + change.table(), 1L, Long::sum));
    List<Struct> collections = new ArrayList<>();
    counts.forEach((table, count) -> collections.add(new Struct(COLLECTION).put("data_collection", table).put("event_count", count)));
    Struct end = new Struct(END).put("status", "END").put("id", transaction).put("event_count", (long) open.size())
        .put("data_collections", collections).put("ts_ms", nextOffset);
    JsonConverter converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", "true"), false);
    TransactionEvent read = KafkaTransactionEnds.decode(converter.fromConnectData(TRANSACTION_TOPIC, END, end)).orElseThrow();
    ends.put(read.id(), read);
    return end;
  }

  @Override
  public Optional<TransactionEvent> end(String id) {
    return Optional.ofNullable(ends.get(id));
  }
}
