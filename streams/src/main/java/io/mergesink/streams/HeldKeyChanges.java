package io.mergesink.streams;

import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The first half of a primary-key change, held back from the tables of a stream task until its
 * second half arrives (docs/design.md, "Kafka Streams front end"). Debezium sends a key change as
 * a delete of the old key naming the new one ({@code __debezium.newkey}), the old key's tombstone,
 * and a create of the new key whose unchanged (TOAST) columns come from the old key's row: a commit
 * that landed the delete alone would remove that row first, and the columns would land null.
 *
 * <p>Streams commits a task's input offsets after every commit of the tables, past what they hold,
 * so these records are kept in a changelogged store: Streams writes the changelog before it commits
 * the offsets (or in their transaction), and a task that starts anywhere restores them. A record of
 * the partition that is not part of the key change releases them to the engine first, in offset
 * order; those at or above its offset are dropped, as the input delivers them again. The create
 * may have gone to another partition: what was held over a commit is released by the next
 * {@link #releaseOverdue} (the processor's punctuator), to land in the commit after it.
 */
final class HeldKeyChanges {
  /** Debezium's header on the delete that starts a primary-key change (the ingest engine's decoder reads it too). */
  static final String NEW_KEY_HEADER = "__debezium.newkey";

  private final KeyValueStore<String, byte[]> store;
  private final StreamsRecords records;
  private final HeldRecords codec = new HeldRecords();
  /** Partition → the number of the sink's commits when it began holding, as far as this processor saw it begin. */
  private final Map<KafkaPartition, Long> heldSince = new HashMap<>();

  HeldKeyChanges(KeyValueStore<String, byte[]> store, StreamsRecords records) {
    this.store = store;
    this.records = records;
  }

  /** A changelogged in-memory store of held records: partition → its held records ({@link HeldRecords}). */
  static StoreBuilder<KeyValueStore<String, byte[]>> storeBuilder(String name) {
    return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), Serdes.ByteArray());
  }

  /** Whether {@code record} starts a primary-key change, or is the tombstone that follows the held delete. */
  boolean isKeyChange(KafkaRecord record) {
    return record.headers().lastValue(NEW_KEY_HEADER) != null
        || record.value() == null && store.get(key(record.partition())) != null;
  }

  /** Holds {@code record} after what its partition holds below its offset. */
  void hold(KafkaPartition partition, HeldRecords.Held record, long commits) {
    List<HeldRecords.Held> held = new ArrayList<>(heldBelow(partition, record.offset()));
    held.add(record);
    store.put(key(partition), codec.encode(partition.topic(), held));
    heldSince.putIfAbsent(partition, commits);
  }

  /** Releases what {@code partition} holds below {@code offset}, in offset order, and drops the rest. */
  List<KafkaRecord> releaseBelow(KafkaPartition partition, long offset) {
    List<HeldRecords.Held> held = heldBelow(partition, offset);
    if (store.delete(key(partition)) == null) {
      return List.of();
    }
    heldSince.remove(partition);
    return held.stream().map(record -> records.view(partition, record)).toList();
  }

  /**
   * Releases, by partition, what has been held over one of the sink's commits: {@code commits} is
   * the number of them so far. Records this processor did not see held (restored from the
   * changelog) count from now.
   */
  Map<KafkaPartition, List<KafkaRecord>> releaseOverdue(long commits) {
    List<KafkaPartition> overdue = new ArrayList<>();
    try (KeyValueIterator<String, byte[]> all = store.all()) {
      while (all.hasNext()) {
        KafkaPartition partition = partition(all.next().key);
        if (heldSince.computeIfAbsent(partition, restored -> commits) < commits) {
          overdue.add(partition);
        }
      }
    }
    Map<KafkaPartition, List<KafkaRecord>> released = new LinkedHashMap<>();
    overdue.forEach(partition -> released.put(partition, releaseBelow(partition, Long.MAX_VALUE)));
    return released;
  }

  private List<HeldRecords.Held> heldBelow(KafkaPartition partition, long offset) {
    byte[] encoded = store.get(key(partition));
    if (encoded == null) {
      return List.of();
    }
    return codec.decode(partition.topic(), encoded).stream().filter(record -> record.offset() < offset).toList();
  }

  /** "partition/topic": a topic name has no '/'. */
  private static String key(KafkaPartition partition) {
    return partition.partition() + "/" + partition.topic();
  }

  private static KafkaPartition partition(String key) {
    int slash = key.indexOf('/');
    return new KafkaPartition(key.substring(slash + 1), Integer.parseInt(key.substring(0, slash)));
  }
}
