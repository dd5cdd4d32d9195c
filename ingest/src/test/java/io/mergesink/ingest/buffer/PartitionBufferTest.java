package io.mergesink.ingest.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.SourceInfo;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PartitionBufferTest {
  private static final String TOPIC = "pg.public.t";
  private static final StructType KEY = StructType.of(new StructField("id", PrimitiveType.LONG, false));
  private static final StructType VALUE = StructType.of(new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true), new StructField("bio", PrimitiveType.STRING, true));
  private static final BufferLimits ROOMY = new BufferLimits(1_000, 1L << 30);

  private static ChangeEvent upsert(long offset, long id, String name, Object bio) {
    return new ChangeEvent(Op.UPSERT, Row.of(id), KEY, Row.of(id, name, bio), VALUE, SourceInfo.NONE, 0, TOPIC, TOPIC,
        0, offset, "u");
  }

  private static ChangeEvent delete(long offset, long id) {
    return new ChangeEvent(Op.DELETE, Row.of(id), KEY, null, null, SourceInfo.NONE, 0, TOPIC, TOPIC, 0, offset, "d");
  }

  private static ChangeEvent truncate(long offset) {
    return new ChangeEvent(Op.TRUNCATE, null, null, null, null, SourceInfo.NONE, 0, TOPIC, TOPIC, 0, offset, "t");
  }

  private static PartitionBuffer buffer() {
    return new PartitionBuffer(TOPIC, 0, PendingChanges::coalescedByKey, ROOMY);
  }

  @Test
  void anUpsertKeptBehindADeleteForAKeyChangeStillCountsTowardsBufferMaxBytes() {
    PartitionBuffer buffer = buffer();
    buffer.add("t", upsert(0, 1, "x".repeat(10_000), null));
    long withUpsert = buffer.estimatedBytes();
    buffer.add("t", delete(1, 1));
    // the upsert stays in the buffer (a create of a new key may take its unchanged columns), so its bytes must too
    assertThat(buffer.estimatedBytes()).isGreaterThan(withUpsert);
    buffer.add("t", truncate(2));
    assertThat(buffer.estimatedBytes()).isZero();
  }

  @Test
  void lastChangePerKeyWinsAcrossUpsertsAndDeletes() {
    PartitionBuffer buffer = buffer();
    buffer.add("t", upsert(0, 1, "a", "x"));
    buffer.add("t", upsert(1, 2, "b", "y"));
    buffer.add("t", upsert(2, 1, "a2", "x2"));
    buffer.add("t", delete(3, 2));

    assertThat(buffer.changeCount()).isEqualTo(2);
    List<TableChanges> drain = drain(buffer);
    assertThat(drain).hasSize(1);
    TableChanges changes = drain.get(0);
    assertThat(changes.truncatedAt()).isEmpty();
    assertThat(changes.changes()).extracting(ChangeEvent::op).containsExactly(Op.UPSERT, Op.DELETE);
    assertThat(changes.changes().get(0).value()).isEqualTo(Row.of(1L, "a2", "x2"));
    assertThat(changes.changes().get(1).key()).isEqualTo(Row.of(2L));
    assertThat(buffer.isEmpty()).isTrue();
    assertThat(buffer.changeCount()).isZero();
    assertThat(buffer.estimatedBytes()).isZero();
  }

  @Test
  void aPrimaryKeyChangeTakesUnchangedValuesFromTheOldKeysRow() {
    PartitionBuffer buffer = buffer();
    buffer.add("t", upsert(0, 1, "a", "long bio"));
    buffer.add("t", delete(1, 1));
    buffer.add("t", upsert(2, 5, "a", Unchanged.VALUE).with(Op.UPSERT, Row.of(5L), KEY, Row.of(5L, "a", Unchanged.VALUE), VALUE,
        Row.of(1L)));
    buffer.add("t", upsert(3, 7, "c", Unchanged.VALUE).with(Op.UPSERT, Row.of(7L), KEY, Row.of(7L, "c", Unchanged.VALUE), VALUE,
        Row.of(6L))); // the old key's row is not in the buffer: the table's live row of key 6 decides

    assertThat(drain(buffer).get(0).changes()).extracting(ChangeEvent::value)
        .containsExactly(null, Row.of(5L, "a", "long bio"), Row.of(7L, "c", Unchanged.VALUE));
  }

  @Test
  void unchangedToastValuesComeFromTheEarlierUpsertOrBecomeNullAfterADelete() {
    PartitionBuffer buffer = buffer();
    buffer.add("t", upsert(0, 1, "a", "long bio"));
    buffer.add("t", upsert(1, 1, "b", Unchanged.VALUE));
    buffer.add("t", upsert(2, 2, "c", Unchanged.VALUE)); // no earlier change: the table's live row decides
    buffer.add("t", delete(3, 3));
    buffer.add("t", upsert(4, 3, "d", Unchanged.VALUE)); // re-inserted after a delete: nothing to keep

    assertThat(drain(buffer).get(0).changes()).extracting(ChangeEvent::value)
        .containsExactly(Row.of(1L, "b", "long bio"), Row.of(2L, "c", Unchanged.VALUE), Row.of(3L, "d", null));
  }

  @Test
  void truncateDropsEarlierChangesOfThatTableOnly() {
    PartitionBuffer buffer = buffer();
    buffer.add("t", upsert(0, 1, "a", "x"));
    buffer.add("other", upsert(1, 1, "o", "x"));
    buffer.add("t", truncate(2));
    buffer.add("t", upsert(3, 2, "b", Unchanged.VALUE));

    List<TableChanges> drain = drain(buffer);
    TableChanges t = drain.get(0);
    assertThat(t.table()).isEqualTo("t");
    assertThat(t.truncatedAt()).isEqualTo(OptionalLong.of(2));
    assertThat(t.changes()).extracting(ChangeEvent::value).containsExactly(Row.of(2L, "b", null));
    assertThat(drain.get(1).changes()).hasSize(1);
  }

  @Test
  void appendModeKeepsEveryEventInOrder() {
    PartitionBuffer buffer = new PartitionBuffer(TOPIC, 0, PendingChanges::inOffsetOrder, ROOMY);
    buffer.add("t", upsert(0, 1, "a", "x"));
    buffer.add("t", upsert(1, 1, "b", Unchanged.VALUE));
    buffer.add("t", truncate(2));
    buffer.add("t", delete(3, 1));

    assertThat(buffer.changeCount()).isEqualTo(4);
    assertThat(drain(buffer).get(0).changes()).extracting(ChangeEvent::offset).containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void limitsCountCoalescedChangesAndBytes() {
    PartitionBuffer byCount = new PartitionBuffer(TOPIC, 0, PendingChanges::coalescedByKey, new BufferLimits(2, 1L << 30));
    byCount.add("t", upsert(0, 1, "a", "x"));
    byCount.add("t", upsert(1, 1, "b", "x"));
    assertThat(byCount.isFull()).isFalse();
    byCount.add("t", upsert(2, 2, "c", "x"));
    assertThat(byCount.isFull()).isTrue();

    PartitionBuffer byBytes = new PartitionBuffer(TOPIC, 0, PendingChanges::coalescedByKey, new BufferLimits(1_000, 10_000));
    byBytes.add("t", upsert(0, 1, "a", "small"));
    long small = byBytes.estimatedBytes();
    assertThat(byBytes.isFull()).isFalse();
    byBytes.add("t", upsert(1, 1, "a", "z".repeat(20_000)));
    assertThat(byBytes.estimatedBytes()).isGreaterThan(20_000);
    assertThat(byBytes.isFull()).isTrue();
    byBytes.add("t", upsert(2, 1, "a", "small")); // replacing the big row releases its bytes
    assertThat(byBytes.estimatedBytes()).isEqualTo(small);
    assertThat(byBytes.isFull()).isFalse();
  }

  @Test
  void rejectsForeignPartitionsAndSkips() {
    PartitionBuffer buffer = buffer();
    assertThatThrownBy(() -> buffer.add("t", ChangeEvent.skip(TOPIC, TOPIC, 0, 11, 0))).hasMessageContaining("changes nothing");
    ChangeEvent foreign = new ChangeEvent(Op.DELETE, Row.of(1L), KEY, null, null, SourceInfo.NONE, 0, TOPIC, TOPIC, 1, 6, "d");
    assertThatThrownBy(() -> buffer.add("t", foreign)).hasMessageContaining("pg.public.t-1 given to the buffer of pg.public.t-0");
  }

  /** Everything the buffer holds, which it then drops as a successful commit of every table would. */
  private static List<TableChanges> drain(PartitionBuffer buffer) {
    List<TableChanges> pending = buffer.pending();
    pending.forEach(changes -> buffer.committed(changes.table()));
    return pending;
  }
}
