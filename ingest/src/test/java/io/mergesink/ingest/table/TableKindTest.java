package io.mergesink.ingest.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.mergesink.core.data.Row;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.options.WriteMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableKindTest {
  private static final String TOPIC = "pg.public.t";
  private static final StructType KEY = StructType.of(new StructField("id", PrimitiveType.LONG, false));
  // "id" arrives nullable and "name" NOT NULL, so each test sees which of them the kind changes
  private static final StructType VALUE = StructType.of(new StructField("id", PrimitiveType.LONG, true),
      new StructField("name", PrimitiveType.STRING, false));
  private static final ChangeEvent UPSERT = new ChangeEvent(Op.UPSERT, Row.of(1L), KEY, Row.of(1L, "a"), VALUE, SourceInfo.NONE,
      0, TOPIC, TOPIC, 0, 5, "c");
  private static final ChangeEvent DELETE = new ChangeEvent(Op.DELETE, Row.of(1L), KEY, null, null, SourceInfo.NONE, 0, TOPIC,
      TOPIC, 0, 6, "d");
  private static final ChangeEvent TRUNCATE = new ChangeEvent(Op.TRUNCATE, null, null, null, null, SourceInfo.NONE, 0, TOPIC,
      TOPIC, 0, 7, "t");

  @Test
  void keyedTablesAreCreatedByUpsertsOnlyWithTheirKeyNotNull() {
    TableKind keyed = TableKind.of(WriteMode.UPSERT);

    assertThat(List.of(UPSERT, DELETE, TRUNCATE)).map(keyed::createsTable).containsExactly(true, false, false);
    assertThat(keyed.newTableKey(UPSERT, List.of())).containsExactly("id");
    assertThat(keyed.newTableKey(UPSERT, List.of("name"))).containsExactly("name");
    StructType schema = keyed.newTableSchema(UPSERT, List.of("id"));
    assertThat(schema.fields()).extracting(StructField::name, StructField::nullable)
        .containsExactly(tuple("id", false), tuple("name", false));
    assertThat(keyed.keyColumns(List.of(), List.of("id"))).containsExactly("id");
    assertThat(keyed.keyColumns(List.of("name"), List.of("id"))).containsExactly("name");
  }

  @Test
  void appendTablesAreCreatedByAnyEventWithoutKeyAndNullableNonKeyColumns() {
    TableKind append = TableKind.of(WriteMode.APPEND);

    assertThat(List.of(UPSERT, DELETE, TRUNCATE)).map(append::createsTable).containsExactly(true, true, true);
    assertThat(append.newTableKey(UPSERT, List.of("id"))).isEmpty();
    assertThat(append.keyColumns(List.of("id"), List.of("id"))).isEmpty();
    // a later delete's row may hold its key only, so "name" must take nulls; the key and the origin keep theirs
    StructType schema = append.newTableSchema(UPSERT, List.of());
    assertThat(schema.fields()).extracting(StructField::name, StructField::nullable).containsExactly(
        tuple("id", true), tuple("name", true), tuple("_op", true), tuple("_ts_ms", true), tuple("_kafka_topic", false),
        tuple("_kafka_partition", false), tuple("_kafka_offset", false));
  }

  @Test
  void historyTablesAreKeyedTablesWithTheVersionColumnsAndNameTheirCurrentRowColumn() {
    TableKind history = TableKind.of(WriteMode.HISTORY);

    assertThat(List.of(UPSERT, DELETE, TRUNCATE)).map(history::createsTable).containsExactly(true, false, false);
    assertThat(history.newTableKey(UPSERT, List.of())).containsExactly("id");
    StructType schema = history.newTableSchema(UPSERT, List.of("id"));
    assertThat(schema.fields()).extracting(StructField::name, StructField::type, StructField::nullable).containsExactly(
        tuple("id", PrimitiveType.LONG, false), tuple("name", PrimitiveType.STRING, false),
        tuple("__valid_from", PrimitiveType.TIMESTAMP, true), tuple("__valid_to", PrimitiveType.TIMESTAMP, true),
        tuple("__current", PrimitiveType.BOOLEAN, false));
    assertThat(history.newTableProperties()).containsExactly(Map.entry(CurrentRowColumn.PROPERTY, "__current"));
  }
}
