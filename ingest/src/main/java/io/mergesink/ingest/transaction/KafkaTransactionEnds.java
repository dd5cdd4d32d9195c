package io.mergesink.ingest.transaction;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.decode.TransactionEvent;
import io.mergesink.ingest.decode.TransactionEvent.Status;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.ExponentialBackoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@code END} events of Debezium's transaction topics with a {@link KafkaConsumer} the task
 * owns, on a thread of its own: assigned every partition of the topics (no consumer group, no
 * committed offsets), from a margin before the oldest open transaction the engine asked about
 * ({@link #follow}). Connect assigns the transaction topic to one task at most, and a task that
 * writes tables needs the ends of the transactions it holds open, so each task reads it itself.
 *
 * <p>Values are JSON (the JsonConverter's, with or without schemas); other values are ignored
 * (logged once), and transactions then complete when a later one begins. Keeps the newest
 * {@value #MAX_ENDS} ends.
 *
 * <p>A failure to read (the broker unreachable past the consumer's timeouts, the topic deleted) closes
 * the consumer and starts over with a new one after a wait that grows exponentially with the failures
 * in a row ({@value #RETRY_MAX_SECONDS} s at most), each failure logged with the topics and its cause.
 */
public final class KafkaTransactionEnds implements TransactionEnds {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaTransactionEnds.class);
  /** Ends kept: far more than transactions open in a task's buffers. */
  static final int MAX_ENDS = 100_000;
  /** The end offset lookups kept per data partition, the oldest dropped first: at two a second, over an hour's. */
  static final int MAX_END_OFFSET_LOOKUPS = 10_000;
  /** Reading starts this long before the time of the oldest open change asked about (clock skew, commit latency). */
  static final Duration MARGIN = Duration.ofMinutes(5);
  private static final Duration POLL = Duration.ofMillis(200);
  /** How long a transaction topic that does not exist (yet) is left alone before the next look. */
  private static final Duration MISSING_TOPIC_WAIT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The wait after the first failure to read; it doubles with each failure in a row, up to {@link #RETRY_MAX}. */
  static final Duration RETRY_INITIAL = Duration.ofMillis(500);
  static final int RETRY_MAX_SECONDS = 30;
  static final Duration RETRY_MAX = Duration.ofSeconds(RETRY_MAX_SECONDS);
  private static final double RETRY_JITTER = 0.2;

  private final TransactionOptions options;
  private final Map<String, TransactionEvent> ends = Collections.synchronizedMap(new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, TransactionEvent> eldest) {
      return size() > MAX_ENDS;
    }
  });
  /** How often the end offsets of the data partitions asked about are looked up again. */
  static final Duration END_OFFSETS_REFRESH = Duration.ofMillis(500);
  /** How often the partition counts of the topics asked about are read again. */
  static final Duration PARTITION_COUNTS_REFRESH = Duration.ofMinutes(1);
  /** Transaction topic → the earliest time the engine wants its ends from. */
  private final Map<String, Long> wanted = new ConcurrentHashMap<>();
  /** Topics whose partition counts were asked for ({@link #partitionCount}), and the counts last read. */
  private final Set<String> countsWanted = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> partitionCounts = new ConcurrentHashMap<>();
  /** Data partitions whose end offsets were asked for ({@link #endOffsetAfter}), and the offsets last looked up. */
  private final Set<KafkaPartition> endOffsetsWanted = ConcurrentHashMap.newKeySet();
  /**
   * Data partition → its end offsets looked up, by the offset of the newest {@code END} read at the time
   * (the first lookup after each): the lookups a later ask may need.
   */
  private final Map<KafkaPartition, ConcurrentNavigableMap<Long, Long>> endOffsets = new ConcurrentHashMap<>();
  /** Transaction topic → the offset of the newest {@code END} read from it (it has one partition), on the reader thread. */
  private final Map<String, Long> newestEndRead = new HashMap<>();

  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread reader;
  private volatile KafkaConsumer<byte[], byte[]> consumer;
  private final EndListener listener;
  /** Failures to read in a row, on the reader thread. */
  private int failures;
  private volatile long failuresTotal;
  private boolean undecodedLogged;

  /** Told of every {@code END} read, on the reader thread; an end may be told again after a failure to read. */
  public interface EndListener {
    EndListener NONE = (partition, offset, end) -> { };

    void ended(KafkaPartition transactionTopic, long offset, TransactionEvent end);
  }

  /** Starts the reader; it reads nothing before the first {@link #follow}. */
  public KafkaTransactionEnds(TransactionOptions options) {
    this(options, EndListener.NONE);
  }

  /** As {@link #KafkaTransactionEnds(TransactionOptions)}, telling {@code listener} of every end read. */
  public KafkaTransactionEnds(TransactionOptions options, EndListener listener) {
    this.options = options;
    this.listener = listener;
    this.reader = new Thread(this::read, "mergesink-transaction-ends");
    reader.setDaemon(true);
    reader.start();
  }

  @Override
  public Optional<TransactionEvent> end(String id) {
    return Optional.ofNullable(ends.get(id));
  }

  @Override
  public void follow(KafkaPartition partition, long timestampMs) {
    wanted.merge(options.transactionTopicOf(partition.topic()), Math.max(0, timestampMs - MARGIN.toMillis()), Math::min);
  }

  @Override
  public OptionalInt partitionCount(String topic) {
    countsWanted.add(topic);
    Integer count = partitionCounts.get(topic);
    return count == null ? OptionalInt.empty() : OptionalInt.of(count);
  }

  @Override
  public OptionalLong endOffsetAfter(KafkaPartition partition, long endOffset) {
    endOffsetsWanted.add(partition);
    ConcurrentNavigableMap<Long, Long> known = endOffsets.get(partition);
    if (known == null) {
      return OptionalLong.empty();
    }
    Map.Entry<Long, Long> first = known.ceilingEntry(endOffset);
    return first == null ? OptionalLong.empty() : OptionalLong.of(first.getValue());
  }

  /** The failures to read so far (each followed by a new consumer). */
  long failures() {
    return failuresTotal;
  }

  /** Stops the reader and closes its consumer. */
  @Override
  public void close() {
    closed.countDown();
    KafkaConsumer<byte[], byte[]> open = consumer;
    if (open != null) {
      open.wakeup();
    }
    try {
      reader.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void read() {
    Map<String, Object> config = new HashMap<>(options.kafka());
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    ExponentialBackoff backoff = new ExponentialBackoff(RETRY_INITIAL.toMillis(), 2, RETRY_MAX.toMillis(), RETRY_JITTER);
    try {
      while (closed.getCount() > 0) {
        try (KafkaConsumer<byte[], byte[]> kafka = new KafkaConsumer<>(config)) {
          consumer = kafka;
          if (closed.getCount() > 0) {
            readWith(kafka);
          }
        } catch (WakeupException e) {
          // closed
        } catch (RuntimeException e) {
          // the broker unreachable past the consumer's timeouts, the topic deleted under it, ...: start over with a new consumer
          // from the times wanted (ends read again change nothing); transactions wait meanwhile, none lands in part
          long wait = backoff.backoff(failures++);
          failuresTotal++;
          LOG.warn("Reading the transaction topics {} failed ({} in a row); reading again in {} ms: {}", wanted.keySet(), failures,
              wait, e.toString());
          closed.await(wait, TimeUnit.MILLISECONDS);
        } finally {
          consumer = null;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Reads with {@code kafka}, from the times wanted, until closed or until it throws. */
  private void readWith(KafkaConsumer<byte[], byte[]> kafka) throws InterruptedException {
    Map<String, Long> readFrom = new HashMap<>();
    Set<String> countsRead = new HashSet<>();
    long countsDue = System.nanoTime();
    long endOffsetsDue = System.nanoTime();
    while (closed.getCount() > 0) {
      if (!countsRead.containsAll(countsWanted) || !countsWanted.isEmpty() && System.nanoTime() - countsDue >= 0) {
        countsRead.addAll(countsWanted);
        readPartitionCounts(kafka);
        countsDue = System.nanoTime() + PARTITION_COUNTS_REFRESH.toNanos();
      }
      if (!seek(kafka, readFrom)) {
        // nothing asked for yet, or the topics asked for do not exist (yet)
        closed.await((wanted.isEmpty() ? POLL : MISSING_TOPIC_WAIT).toMillis(), TimeUnit.MILLISECONDS);
        continue;
      }
      if (!endOffsetsWanted.isEmpty() && System.nanoTime() - endOffsetsDue >= 0) {
        readEndOffsets(kafka);
        endOffsetsDue = System.nanoTime() + END_OFFSETS_REFRESH.toNanos();
      }
      ConsumerRecords<byte[], byte[]> records = kafka.poll(POLL);
      failures = 0;
      for (ConsumerRecord<byte[], byte[]> record : records) {
        Optional<TransactionEvent> event = decode(record.value());
        if (event.isEmpty() && record.value() != null && !undecodedLogged) {
          LOG.warn("Transaction topic {} holds values that are not JSON transaction events (first at partition {}, offset {}); "
              + "transactions complete when a later one begins", record.topic(), record.partition(), record.offset());
          undecodedLogged = true;
        }
        event.filter(end -> end.status() == Status.END).ifPresent(end -> {
          ends.put(end.id(), end);
          newestEndRead.merge(record.topic(), record.offset(), Math::max);
          listener.ended(new KafkaPartition(record.topic(), record.partition()), record.offset(), end);
        });
      }
    }
  }

  /**
   * Looks up the end offsets of the data partitions asked about, in one request per broker. Debezium
   * writes a transaction's changes before its {@code END}, so the changes of the transactions whose
   * ends were read are below these offsets (as far as the broker made them visible as it acknowledged them).
   */
  private void readEndOffsets(KafkaConsumer<byte[], byte[]> kafka) {
    Map<TopicPartition, KafkaPartition> asked = new HashMap<>();
    Map<KafkaPartition, Long> afterEnds = new HashMap<>();
    endOffsetsWanted.forEach(partition -> {
      asked.put(new TopicPartition(partition.topic(), partition.partition()), partition);
      afterEnds.put(partition, newestEndRead.getOrDefault(options.transactionTopicOf(partition.topic()), -1L));
    });
    kafka.endOffsets(asked.keySet()).forEach((topicPartition, offset) -> {
      KafkaPartition partition = asked.get(topicPartition);
      if (offset != null) {
        ConcurrentNavigableMap<Long, Long> lookups = endOffsets.computeIfAbsent(partition, p -> new ConcurrentSkipListMap<>());
        lookups.putIfAbsent(afterEnds.get(partition), offset);
        if (lookups.size() > MAX_END_OFFSET_LOOKUPS) {
          // a later lookup answers an ask about an earlier end with a higher offset: a longer wait, never a wrong cut
          lookups.pollFirstEntry();
        }
      }
    });
  }

  /** Reads the partition counts of the topics asked about, in one metadata request. */
  private void readPartitionCounts(KafkaConsumer<byte[], byte[]> kafka) {
    Map<String, List<PartitionInfo>> topics = kafka.listTopics();
    for (String topic : countsWanted) {
      List<PartitionInfo> partitions = topics.get(topic);
      if (partitions != null && !partitions.isEmpty()) {
        partitionCounts.put(topic, partitions.size());
      }
    }
  }

  /**
   * Assigns the wanted topics and seeks each back to the time it is wanted from, where that is earlier
   * than where it was read from; returns whether there is anything to poll.
   */
  private boolean seek(KafkaConsumer<byte[], byte[]> kafka, Map<String, Long> readFrom) {
    boolean changed = false;
    Map<TopicPartition, Long> seekTo = new HashMap<>();
    for (Map.Entry<String, Long> want : wanted.entrySet()) {
      Long from = readFrom.get(want.getKey());
      if (from != null && from <= want.getValue()) {
        continue;
      }
      List<PartitionInfo> partitions = kafka.partitionsFor(want.getKey());
      if (partitions == null || partitions.isEmpty()) {
        LOG.debug("Transaction topic {} does not exist (yet)", want.getKey());
        continue;
      }
      partitions.forEach(info -> seekTo.put(new TopicPartition(info.topic(), info.partition()), want.getValue()));
      readFrom.put(want.getKey(), want.getValue());
      changed = true;
    }
    if (changed) {
      Set<TopicPartition> assigned = new HashSet<>(kafka.assignment());
      assigned.addAll(seekTo.keySet());
      kafka.assign(assigned);
      Map<TopicPartition, OffsetAndTimestamp> offsets = kafka.offsetsForTimes(seekTo);
      Map<TopicPartition, Long> endOffsets = kafka.endOffsets(seekTo.keySet());
      seekTo.keySet().forEach(partition -> {
        OffsetAndTimestamp offset = offsets.get(partition);
        kafka.seek(partition, offset == null ? endOffsets.get(partition) : offset.offset());
      });
      LOG.info("Reading the ends of source transactions from {}", seekTo);
    }
    return !kafka.assignment().isEmpty();
  }

  /** The transaction event a JSON value holds, if it is one. */
  public static Optional<TransactionEvent> decode(byte[] value) {
    if (value == null) {
      return Optional.empty();
    }
    try {
      return TransactionEvent.of(JSON.readValue(value, Map.class));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
