package io.mergesink.ingest.testing;

import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.record.RecordHeaders;
import io.mergesink.ingest.transaction.KafkaTransactionEnds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * A bank as Debezium's PostgreSQL connector streams it with {@code provide.transaction.metadata=true}:
 * accounts in two tables ({@code checking}, {@code savings}: {@code id}, {@code balance}, {@code moves},
 * the transfers that touched the account) and a {@code transfers} table ({@code id}, the two accounts,
 * {@code amount}), one topic of one partition per table ({@code bank.public.<table>}); each source
 * transaction moves money between two accounts and inserts the transfer. The {@code BEGIN} and
 * {@code END} events go to {@value #TRANSACTION_TOPIC} in commit order, JSON as the worker's
 * JsonConverter writes them. Keeps the state of every table after every transaction.
 */
public final class TransferRecords {
  public static final String TRANSACTION_TOPIC = "bank.transaction";
  public static final List<String> ACCOUNT_TABLES = List.of("checking", "savings");
  public static final String TRANSFERS = "transfers";
  public static final long OPENING_BALANCE = 100;
  private static final Schema ACCOUNT = SchemaBuilder.struct().name("bank.Account").optional().field("id", Schema.INT64_SCHEMA)
      .field("balance", Schema.INT64_SCHEMA).field("moves", Schema.INT64_SCHEMA).build();
  private static final Schema TRANSFER = SchemaBuilder.struct().name("bank.Transfer").optional().field("id", Schema.INT64_SCHEMA)
      .field("from_table", Schema.STRING_SCHEMA).field("from_id", Schema.INT64_SCHEMA).field("from_moves", Schema.INT64_SCHEMA)
      .field("to_table", Schema.STRING_SCHEMA).field("to_id", Schema.INT64_SCHEMA).field("to_moves", Schema.INT64_SCHEMA)
      .field("amount", Schema.INT64_SCHEMA).build();
  private static final Schema KEY = SchemaBuilder.struct().name("bank.Key").field("id", Schema.INT64_SCHEMA).build();
  // the source block, transaction block and transaction topic value as TransactionRecords writes them
  private static final Schema SOURCE = TransactionRecords.SOURCE;
  private static final Schema BLOCK = TransactionRecords.BLOCK;
  private static final Schema COLLECTION = TransactionRecords.COLLECTION;
  private static final Schema TRANSACTION = TransactionRecords.END;

  /** An {@code END} of the transaction topic at its offset. */
  public record End(long offset, TransactionEvent event) {}

  private final Map<String, List<KafkaRecord>> records = new LinkedHashMap<>();
  private final List<End> ends = new ArrayList<>();
  private final List<Struct> transactionEvents = new ArrayList<>();
  /** Table → the number of its changes, after each transaction, by the transaction's {@code END} offset. */
  private final Map<Long, Map<String, Integer>> changeCounts = new HashMap<>();
  /** Table → id → row values, after each transaction, by the transaction's {@code END} offset. */
  private final Map<Long, Map<String, Map<Long, List<Object>>>> states = new HashMap<>();
  private final Map<String, Map<Long, List<Object>>> state = new LinkedHashMap<>();
  private final JsonConverter converter = new JsonConverter();
  private long transactionTopicOffset;
  private int transactions;

  /** Opens {@code accountsPerTable} accounts in each account table, in one transaction at source time 0. */
  public TransferRecords(int accountsPerTable) {
    converter.configure(Map.of("schemas.enable", "true"), false);
    ACCOUNT_TABLES.forEach(table -> records.put(table, new ArrayList<>()));
    records.put(TRANSFERS, new ArrayList<>());
    List<Change> opening = new ArrayList<>();
    for (String table : ACCOUNT_TABLES) {
      for (long id = 1; id <= accountsPerTable; id++) {
        opening.add(account(table, id, OPENING_BALANCE, 0));
      }
    }
    commit(opening, 0);
  }

  /** Commits a transfer between two random accounts at {@code sourceTimeMs}. */
  public void transfer(Random random, long sourceTimeMs) {
    List<String> tables = new ArrayList<>(ACCOUNT_TABLES);
    String fromTable = tables.get(random.nextInt(tables.size()));
    String toTable = tables.get(random.nextInt(tables.size()));
    int perTable = state.get(fromTable).size();
    long fromId = 1 + random.nextInt(perTable);
    long toId = 1 + random.nextInt(perTable);
    if (fromTable.equals(toTable) && fromId == toId) {
      toId = fromId % perTable + 1;
    }
    List<Object> from = state.get(fromTable).get(fromId);
    List<Object> to = state.get(toTable).get(toId);
    long amount = 1 + random.nextInt(10);
    long fromMoves = (Long) from.get(2) + 1;
    long toMoves = (Long) to.get(2) + 1;
    long id = ++transactions;
    List<Change> changes = List.of(account(fromTable, fromId, (Long) from.get(1) - amount, fromMoves),
        account(toTable, toId, (Long) to.get(1) + amount, toMoves),
        new Change(TRANSFERS, id, List.of(id, fromTable, fromId, fromMoves, toTable, toId, toMoves, amount)));
    commit(changes, sourceTimeMs);
  }

  /** The change records of {@code table}'s topic, in offset order. */
  public List<KafkaRecord> records(String table) {
    return records.get(table);
  }

  /** The tables and their topics' partitions. */
  public Map<String, KafkaPartition> partitions() {
    Map<String, KafkaPartition> partitions = new LinkedHashMap<>();
    records.keySet().forEach(table -> partitions.put(table, partition(table)));
    return partitions;
  }

  /** The {@code END} events of the transaction topic, in offset order. */
  public List<End> ends() {
    return ends;
  }

  /**
   * The values of the transaction topic, of schema {@link TransactionRecords#END}, in offset order: each
   * transaction's {@code BEGIN} and {@code END}, as Debezium writes them (an {@code END}'s offset is its
   * {@link End#offset()} once they are produced in order to an empty partition).
   */
  public List<Struct> transactionEvents() {
    return transactionEvents;
  }

  /** The number of changes of {@code table} the transactions up to the one whose {@code END} is at {@code endOffset} made. */
  public int changesUpTo(String table, long endOffset) {
    return changeCounts.get(endOffset).get(table);
  }

  /** Each table's rows (id → values in column order) after the transaction whose {@code END} is at {@code endOffset}. */
  public Map<String, Map<Long, List<Object>>> stateAt(long endOffset) {
    return states.get(endOffset);
  }

  public static KafkaPartition partition(String table) {
    return new KafkaPartition("bank.public." + table, 0);
  }

  public static KafkaPartition transactionTopic() {
    return new KafkaPartition(TRANSACTION_TOPIC, 0);
  }

  private record Change(String table, long id, List<Object> values) {}

  private static Change account(String table, long id, long balance, long moves) {
    return new Change(table, id, List.of(id, balance, moves));
  }

  private void commit(List<Change> changes, long sourceTimeMs) {
    String id = "tx" + transactionTopicOffset;
    transactionEvents.add(new Struct(TRANSACTION).put("status", "BEGIN").put("id", id).put("ts_ms", sourceTimeMs));
    transactionTopicOffset++;
    Map<String, Long> counts = new LinkedHashMap<>();
    Map<String, Long> tableOrder = new HashMap<>();
    long total = 0;
    for (Change change : changes) {
      counts.merge("public." + change.table(), 1L, Long::sum);
      List<KafkaRecord> topic = records.get(change.table());
      long offset = topic.size();
      Schema row = change.table().equals(TRANSFERS) ? TRANSFER : ACCOUNT;
      Struct after = new Struct(row);
      for (int i = 0; i < row.fields().size(); i++) {
        after.put(row.fields().get(i), change.values().get(i));
      }
      Schema envelope = SchemaBuilder.struct().name("bank." + change.table() + ".Envelope").version(2).field("before", row)
          .field("after", row).field("source", SOURCE).field("transaction", BLOCK).field("op", Schema.STRING_SCHEMA)
          .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();
      Struct source = new Struct(SOURCE).put("db", "bank").put("schema", "public").put("table", change.table())
          .put("ts_ms", sourceTimeMs);
      Struct block = new Struct(BLOCK).put("id", id).put("total_order", ++total)
          .put("data_collection_order", tableOrder.merge(change.table(), 1L, Long::sum));
      Struct value = new Struct(envelope).put("after", after).put("source", source).put("transaction", block)
          .put("op", state.getOrDefault(change.table(), Map.of()).containsKey(change.id()) ? "u" : "c").put("ts_ms", sourceTimeMs);
      KafkaPartition partition = partition(change.table());
      topic.add(new KafkaRecord(partition, offset, partition.topic(), sourceTimeMs, KEY, new Struct(KEY).put("id", change.id()),
          envelope, value, RecordHeaders.NONE));
      state.computeIfAbsent(change.table(), table -> new LinkedHashMap<>()).put(change.id(), change.values());
    }
    List<Struct> collections = new ArrayList<>();
    counts.forEach((table, count) -> collections.add(new Struct(COLLECTION).put("data_collection", table).put("event_count", count)));
    Struct end = new Struct(TRANSACTION).put("status", "END").put("id", id).put("event_count", total)
        .put("data_collections", collections).put("ts_ms", sourceTimeMs);
    transactionEvents.add(end);
    long endOffset = transactionTopicOffset++;
    ends.add(new End(endOffset, KafkaTransactionEnds.decode(converter.fromConnectData(TRANSACTION_TOPIC, TRANSACTION, end))
        .orElseThrow()));
    Map<String, Map<Long, List<Object>>> copy = new LinkedHashMap<>();
    state.forEach((table, rows) -> copy.put(table, new LinkedHashMap<>(rows)));
    states.put(endOffset, copy);
    Map<String, Integer> counted = new HashMap<>();
    records.forEach((table, topic) -> counted.put(table, topic.size()));
    changeCounts.put(endOffset, counted);
  }
}
