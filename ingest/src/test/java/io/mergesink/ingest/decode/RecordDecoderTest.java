package io.mergesink.ingest.decode;

import static io.mergesink.ingest.decode.DebeziumRecords.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.record.KafkaRecord;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordDecoderTest {
  private static final String TOPIC = "pg.public.customers";
  private static final String PLACEHOLDER = LogicalTypes.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;

  private static RecordDecoder decoder(boolean deletes, boolean truncates) {
    return new RecordDecoder(new DecoderOptions(PrimaryKeyMode.RECORD_KEY, List.of(), deletes, truncates, PLACEHOLDER, false, true));
  }

  private static final RecordDecoder DEFAULT = decoder(true, false);

  @Test
  void createBecomesUpsertWithEveryDebeziumTypeMapped() {
    ChangeEvent event = DEFAULT.decode(load("pg-create.json", TOPIC, 2, 41));

    assertThat(event.op()).isEqualTo(Op.UPSERT);
    assertThat(event.key()).isEqualTo(Row.of(1));
    assertThat(event.keySchema()).isEqualTo(StructType.of(new StructField("id", PrimitiveType.INTEGER, false)));
    assertThat(event.source()).isEqualTo(new SourceInfo("shop", "public", "customers", 24023128L, 1709288130000L));
    assertThat(event.timestampMs()).isEqualTo(1709288130005L);
    assertThat(event.topic()).isEqualTo(TOPIC);
    assertThat(event.partition()).isEqualTo(2);
    assertThat(event.offset()).isEqualTo(41);

    StructType schema = event.valueSchema();
    assertThat(schema.fieldNames()).containsExactly("id", "name", "balance", "ratio", "birth_date", "created_at",
        "updated_at", "opens_at", "profile", "external_id", "bio", "avatar", "tags", "active");
    assertThat(types(schema)).containsExactly(PrimitiveType.INTEGER, PrimitiveType.STRING, new DecimalType(10, 2),
        PrimitiveType.STRING, PrimitiveType.DATE, PrimitiveType.TIMESTAMP_NTZ, PrimitiveType.TIMESTAMP,
        PrimitiveType.LONG, PrimitiveType.STRING, PrimitiveType.STRING, PrimitiveType.STRING, PrimitiveType.BINARY,
        new ArrayType(PrimitiveType.STRING, true), PrimitiveType.BOOLEAN);
    assertThat(schema.field("id").orElseThrow().nullable()).isFalse();
    assertThat(schema.field("name").orElseThrow().nullable()).isTrue();

    Row row = event.value();
    assertThat(row.get(0)).isEqualTo(1);
    assertThat(row.get(1)).isEqualTo("Ada");
    assertThat(row.get(2)).isEqualTo(new BigDecimal("12345.67"));
    assertThat(row.get(3)).isEqualTo("1.234");
    assertThat(row.get(4)).isEqualTo((int) LocalDate.of(1960, 1, 1).toEpochDay());
    assertThat(row.get(5)).isEqualTo(1700000000123456L);
    Instant updated = Instant.parse("2024-03-01T10:15:30.123456Z");
    assertThat(row.get(6)).isEqualTo(updated.getEpochSecond() * 1_000_000 + 123456);
    assertThat(row.get(7)).isEqualTo(34_200_000_000L); // 09:30 in microseconds of the day
    assertThat(row.get(8)).isEqualTo("{\"tier\":\"gold\"}");
    assertThat(row.get(9)).isEqualTo("6f1c4a52-2b1e-4f5e-9d1a-1c2d3e4f5a6b");
    assertThat(row.get(10)).isEqualTo("Mathematician");
    assertThat((byte[]) row.get(11)).containsExactly(0x89, 'P', 'N', 'G');
    assertThat(row.get(12)).isEqualTo(List.of("vip", "early"));
    assertThat(row.get(13)).isEqualTo(true);
  }

  @Test
  void theCreateEndingAPrimaryKeyChangeNamesTheOldKey() {
    // as the worker's SimpleHeaderConverter hands the header over: a map, numbers widened
    KafkaRecord record = DebeziumRecords.withHeader(load("pg-create.json", TOPIC, 2, 41), "__debezium.oldkey", java.util.Map.of("id", 7L));

    assertThat(DEFAULT.decode(record).previousKey()).isEqualTo(Row.of(7));
    assertThat(DEFAULT.decode(load("pg-create.json", TOPIC, 2, 42)).previousKey()).isNull();
  }

  @Test
  void toastPlaceholdersAsTextBytesAndArraysBecomeUnchanged() {
    ChangeEvent event = DEFAULT.decode(load("pg-update-toast.json", TOPIC, 0, 42));

    assertThat(event.op()).isEqualTo(Op.UPSERT);
    Row row = event.value();
    StructType schema = event.valueSchema();
    assertThat(row.get(schema.indexOf("name"))).isEqualTo("Ada Lovelace");
    assertThat(row.get(schema.indexOf("bio"))).isEqualTo(Unchanged.VALUE);
    assertThat(row.get(schema.indexOf("avatar"))).isEqualTo(Unchanged.VALUE);
    assertThat(row.get(schema.indexOf("tags"))).isEqualTo(Unchanged.VALUE);
  }

  @Test
  void deleteTakesTheKeyFromTheRecordKey() {
    ChangeEvent event = DEFAULT.decode(load("pg-delete.json", TOPIC, 0, 43));

    assertThat(event.op()).isEqualTo(Op.DELETE);
    assertThat(event.key()).isEqualTo(Row.of(1));
    assertThat(event.value()).isNull();
    assertThat(event.source().table()).isEqualTo("customers");
  }

  @Test
  void deleteWhenDeletesAreDisabledIsSkipped() {
    assertThat(decoder(false, false).decode(load("pg-delete.json", TOPIC, 0, 43)).op()).isEqualTo(Op.SKIP);
    assertThat(decoder(false, false).decode(load("pg-tombstone.json", TOPIC, 0, 44)).op()).isEqualTo(Op.SKIP);
  }

  @Test
  void tombstoneDeletesTheKey() {
    ChangeEvent event = DEFAULT.decode(load("pg-tombstone.json", TOPIC, 0, 44));

    assertThat(event.op()).isEqualTo(Op.DELETE);
    assertThat(event.key()).isEqualTo(Row.of(1));
    assertThat(event.timestampMs()).isEqualTo(DebeziumRecords.RECORD_TIMESTAMP);
  }

  @Test
  void truncateOnlyWhenEnabled() {
    KafkaRecord truncate = load("pg-truncate.json", TOPIC, 0, 45);

    assertThat(DEFAULT.decode(truncate).op()).isEqualTo(Op.SKIP);
    ChangeEvent event = decoder(true, true).decode(truncate);
    assertThat(event.op()).isEqualTo(Op.TRUNCATE);
    assertThat(event.key()).isNull();
    assertThat(event.source()).isEqualTo(new SourceInfo("shop", "public", "customers", 24023128L, 1709288133000L));
  }

  @Test
  void logicalDecodingMessageIsSkipped() {
    ChangeEvent event = DEFAULT.decode(load("pg-message.json", TOPIC, 0, 46));

    assertThat(event.op()).isEqualTo(Op.SKIP);
    assertThat(event.offset()).isEqualTo(46);
  }

  @Test
  void mysqlSnapshotReadWithMillisNanosAndZonedTimes() {
    ChangeEvent event = DEFAULT.decode(load("mysql-snapshot-read.json", "my.shop.orders", 0, 7));

    assertThat(event.op()).isEqualTo(Op.UPSERT);
    assertThat(event.source()).isEqualTo(new SourceInfo("shop", null, "orders", null, 1709288130000L));
    StructType schema = event.valueSchema();
    assertThat(types(schema)).containsExactly(PrimitiveType.LONG, PrimitiveType.TIMESTAMP_NTZ,
        PrimitiveType.TIMESTAMP_NTZ, PrimitiveType.LONG, PrimitiveType.LONG, PrimitiveType.TIMESTAMP,
        PrimitiveType.SHORT, PrimitiveType.DOUBLE, new DecimalType(20, 4));
    Row row = event.value();
    assertThat(row.get(1)).isEqualTo(1709288130123000L);
    assertThat(row.get(2)).isEqualTo(1709288130123456L); // nanos floored to micros
    assertThat(row.get(3)).isEqualTo(45296789000L); // 12:34:56.789
    assertThat(row.get(4)).isEqualTo(45296789123L);
    long confirmed = LocalDateTime.of(2024, 3, 1, 10, 15, 30).toEpochSecond(ZoneOffset.UTC) * 1_000_000;
    assertThat(row.get(5)).isEqualTo(confirmed); // +02:00 normalised to UTC
    assertThat(row.get(6)).isEqualTo((short) 3);
    assertThat(row.get(8)).isEqualTo(new BigDecimal("123456.7891"));
  }

  @Test
  void flattenedRecordsKeepMetadataColumnsAndHonourDeleted() {
    ChangeEvent upsert = DEFAULT.decode(load("flat-upsert.json", TOPIC, 0, 50));
    ChangeEvent delete = DEFAULT.decode(load("flat-delete.json", TOPIC, 0, 51));

    assertThat(upsert.op()).isEqualTo(Op.UPSERT);
    assertThat(upsert.valueSchema().fieldNames())
        .containsExactly("id", "name", "__op", "__table", "__source_ts_ms", "__deleted");
    assertThat(upsert.source()).isEqualTo(new SourceInfo(null, null, "customers", null, 1709288131000L));
    assertThat(upsert.timestampMs()).isEqualTo(1709288131000L);
    assertThat(delete.op()).isEqualTo(Op.DELETE);
    assertThat(delete.key()).isEqualTo(Row.of(1));
  }

  @Test
  void recordValueModeTakesTheKeyFromTheRowAndTheBeforeImage() {
    RecordDecoder decoder = new RecordDecoder(
        new DecoderOptions(PrimaryKeyMode.RECORD_VALUE, List.of("external_id", "id"), true, false, PLACEHOLDER, false, true));

    ChangeEvent upsert = decoder.decode(load("pg-create.json", TOPIC, 0, 1));
    assertThat(upsert.key()).isEqualTo(Row.of("6f1c4a52-2b1e-4f5e-9d1a-1c2d3e4f5a6b", 1));
    assertThat(upsert.keySchema().fieldNames()).containsExactly("external_id", "id");

    assertThatThrownBy(() -> decoder.decode(load("pg-delete.json", TOPIC, 0, 2)))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("topic " + TOPIC + ", partition 0, offset 2")
        .hasMessageContaining("primary key column 'external_id' is null");
  }

  @Test
  void recordKeyModeAppendsKeyColumnsMissingFromTheValue() {
    KafkaRecord record = DebeziumRecords.schemaless("{\"tenant\":\"t1\",\"id\":5}", "{\"name\":\"x\"}", "t", 3);

    ChangeEvent event = DEFAULT.decode(record);

    assertThat(event.valueSchema().fieldNames()).containsExactly("name", "id", "tenant");
    assertThat(event.value()).isEqualTo(Row.of("x", 5L, "t1"));
    assertThat(event.key()).isEqualTo(Row.of(5L, "t1"));
  }

  @Test
  void primitiveKeyNeedsOneKeyFieldName() {
    KafkaRecord record = DebeziumRecords.schemaless("42", "{\"name\":\"x\"}", "t", 3);

    assertThatThrownBy(() -> DEFAULT.decode(record)).isInstanceOf(DecodeException.class)
        .hasMessageContaining("topic t, partition 0, offset 3")
        .hasMessageContaining("set primary.key.fields to exactly one column name");
    RecordDecoder named = new RecordDecoder(
        new DecoderOptions(PrimaryKeyMode.RECORD_KEY, List.of("id"), true, false, PLACEHOLDER, false, true));
    ChangeEvent event = named.decode(record);
    assertThat(event.key()).isEqualTo(Row.of(42L));
    assertThat(event.value()).isEqualTo(Row.of("x", 42L));
  }

  @Test
  void schemalessValuesFollowTheInferenceRules() {
    KafkaRecord record = DebeziumRecords.schemaless("{\"id\":1}",
        "{\"id\":1,\"price\":9.5,\"ok\":true,\"name\":\"n\",\"gone\":null,\"nums\":[1,2.5],"
            + "\"nested\":{\"b\":1,\"a\":[true]},\"rows\":[{\"x\":1}],\"empty\":[],\"bio\":\"" + PLACEHOLDER + "\"}",
        "t", 9);

    ChangeEvent event = DEFAULT.decode(record);

    // JsonConverter yields a HashMap: columns sorted by name; "gone" (null) left out
    assertThat(event.valueSchema().fieldNames())
        .containsExactly("bio", "empty", "id", "name", "nested", "nums", "ok", "price", "rows");
    assertThat(types(event.valueSchema())).containsExactly(PrimitiveType.STRING,
        new ArrayType(PrimitiveType.STRING, true), PrimitiveType.LONG, PrimitiveType.STRING, PrimitiveType.STRING,
        new ArrayType(PrimitiveType.DOUBLE, true), PrimitiveType.BOOLEAN, PrimitiveType.DOUBLE, PrimitiveType.STRING);
    assertThat(event.value()).isEqualTo(Row.of(Unchanged.VALUE, List.of(), 1L, "n", "{\"a\":[true],\"b\":1}",
        List.of(1.0, 2.5), true, 9.5, "[{\"x\":1}]"));
  }

  @Test
  void schemalessEnvelopeIsDecodedToo() {
    KafkaRecord record = DebeziumRecords.schemaless("{\"id\":7}",
        "{\"before\":null,\"after\":{\"id\":7,\"v\":\"a\"},\"source\":{\"db\":\"d\",\"table\":\"tb\"},"
            + "\"op\":\"c\",\"ts_ms\":5}", "t", 1);

    ChangeEvent event = DEFAULT.decode(record);

    assertThat(event.op()).isEqualTo(Op.UPSERT);
    assertThat(event.value()).isEqualTo(Row.of(7L, "a")); // id, v: sorted by name
    assertThat(event.source()).isEqualTo(new SourceInfo("d", null, "tb"));
    assertThat(event.timestampMs()).isEqualTo(5);
  }

  @Test
  void aRecordWithoutKeyDecodesWithAnEmptyKeyWhenTheTableNeedsNone() {
    RecordDecoder append = new RecordDecoder(new DecoderOptions(PrimaryKeyMode.RECORD_KEY, List.of(), true, false, PLACEHOLDER, true, false));

    ChangeEvent event = append.decode(DebeziumRecords.schemaless(null,
        "{\"before\":null,\"after\":{\"id\":7,\"v\":\"a\"},\"source\":{},\"op\":\"c\",\"ts_ms\":5}", "t", 11));

    assertThat(event.op()).isEqualTo(Op.UPSERT);
    assertThat(event.key()).isEqualTo(Row.of());
    assertThat(event.value()).isEqualTo(Row.of(7L, "a"));
  }

  @Test
  void badInputNamesThePosition() {
    assertThatThrownBy(() -> DEFAULT.decode(DebeziumRecords.schemaless(null, "{\"id\":1}", "t", 11)))
        .isInstanceOf(DecodeException.class)
        .hasMessage("cannot decode record at topic t, partition 0, offset 11: the record has no key; "
            + "primary.key.mode=record_key needs Kafka record keys (or use primary.key.mode=record_value with "
            + "primary.key.fields)");
    assertThatThrownBy(() -> DEFAULT.decode(DebeziumRecords.schemaless("{\"id\":1}",
        "{\"op\":\"x\",\"after\":{},\"source\":{}}", "t", 12)))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("offset 12: unknown Debezium op 'x', expected one of c, r, u, d, t, m");
    assertThatThrownBy(() -> DEFAULT.decode(DebeziumRecords.schemaless("{\"id\":1}", "\"text\"", "t", 13)))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("offset 13: the value is a java.lang.String, expected a Struct");
    assertThatThrownBy(() -> DEFAULT.decode(DebeziumRecords.schemaless("{\"id\":1}", "{\"a\":[1,\"x\"]}", "t", 14)))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("offset 14: value.a: array mixes long and string elements");
    assertThatThrownBy(() -> DEFAULT.decode(DebeziumRecords.schemaless("{\"id\":null}", "{\"a\":1}", "t", 15)))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("offset 15: primary key column 'id' is null");
  }

  @Test
  void placeholderBytesAreRecognisedOnlyAsWholeValue() {
    ValueConverter converter = new ValueConverter(PLACEHOLDER);
    assertThat(converter.isPlaceholder(PLACEHOLDER.getBytes(StandardCharsets.UTF_8))).isTrue();
    assertThat(converter.isPlaceholder(List.of(PLACEHOLDER))).isTrue();
    assertThat(converter.isPlaceholder(List.of(PLACEHOLDER, "x"))).isFalse();
    assertThat(converter.isPlaceholder("x" + PLACEHOLDER)).isFalse();
  }

  static List<Object> types(StructType schema) {
    return schema.fields().stream().map(f -> (Object) f.type()).toList();
  }
}
