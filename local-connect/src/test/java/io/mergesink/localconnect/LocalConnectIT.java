package io.mergesink.localconnect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LocalConnectIT {
  private static final Schema KEY = SchemaBuilder.struct().name("key").field("id", Schema.INT64_SCHEMA).build();
  private static final Schema VALUE = SchemaBuilder.struct().name("value")
      .field("id", Schema.INT64_SCHEMA).field("name", Schema.OPTIONAL_STRING_SCHEMA).build();

  private static LocalConnect connect;

  @BeforeAll
  static void start() {
    connect = LocalConnect.start(1);
  }

  @AfterAll
  static void stop() {
    if (connect != null) {
      connect.close();
    }
  }

  @Test
  void aRecordProducedToATopicIsReadBackWithItsKeyValueAndPosition() {
    connect.createTopic("round-trip", 2);
    Struct key = new Struct(KEY).put("id", 7L);
    Struct value = new Struct(VALUE).put("id", 7L).put("name", "seven");

    long first = connect.produce("round-trip", 1, KEY, key, VALUE, value);
    long tombstone = connect.produce("round-trip", 1, KEY, key, null, null);

    List<ConsumerRecord<byte[], byte[]>> records = connect.readRecords("round-trip", 2);
    assertThat(records).extracting(ConsumerRecord::partition, ConsumerRecord::offset)
        .containsExactly(tuple(1, first), tuple(1, tombstone));
    assertThat(connect.decodeKey(records.get(0))).isEqualTo(new SchemaAndValue(KEY, key));
    assertThat(connect.decodeValue(records.get(0))).isEqualTo(new SchemaAndValue(VALUE, value));
    assertThat(records.get(1).value()).isNull();
    assertThat(connect.endOffsets("round-trip")).isEqualTo(Map.of(
        new TopicPartition("round-trip", 0), 0L, new TopicPartition("round-trip", 1), 2L));
    assertThat(connect.recordCount("round-trip")).isEqualTo(2);
    assertThat(connect.topicExists("round-trip")).isTrue();
    assertThat(connect.topicExists("never-created")).isFalse();
  }

  @Test
  void aChangeStreamsEventsLandInThePartitionsOfTheirKeys() {
    connect.createTopic("customers", 3);
    try (ChangeStream stream = new ChangeStream(connect, "customers", 3)) {
      for (long id = 0; id < 6; id++) {
        stream.upsert(id);
      }
      stream.delete(4, true);
      stream.flush();
      assertThat(stream.model()).containsOnlyKeys(0L, 1L, 2L, 3L, 5L);
    }
    List<ConsumerRecord<byte[], byte[]>> records = connect.readRecords("customers", 8);
    assertThat(records).hasSize(8).allSatisfy(record -> {
      Struct key = (Struct) connect.decodeKey(record).value();
      assertThat(record.partition()).isEqualTo((int) (key.getInt64("id") % 3));
    });
  }
}
