package io.mergesink.ingest.decode;

import static io.mergesink.ingest.decode.DebeziumRecords.load;
import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.options.PrimaryKeyMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deletes with the row before them, for append tables (docs/design.md, "Append tables"): the
 * decoder keeps Debezium's {@code before} (or a rewritten delete's row) only when told to, and a
 * delete without one still carries its key.
 */
class DeleteImageDecodingTest {
  private static final String TOPIC = "pg.public.customers";
  private static final RecordDecoder KEEPING = new RecordDecoder(
      new DecoderOptions(PrimaryKeyMode.RECORD_KEY, List.of(), true, false, "__debezium_unavailable_value", true, false));
  private static final RecordDecoder DROPPING = new RecordDecoder(
      new DecoderOptions(PrimaryKeyMode.RECORD_KEY, List.of(), true, false, "__debezium_unavailable_value", false, true));

  @Test
  void anEnvelopeDeleteCarriesItsBeforeRowWhenKept() {
    ChangeEvent kept = KEEPING.decode(load("pg-delete.json", TOPIC, 0, 43));

    assertThat(kept.op()).isEqualTo(Op.DELETE);
    assertThat(kept.key()).isEqualTo(Row.of(1));
    assertThat(kept.valueSchema().fieldNames()).startsWith("id", "name", "balance").contains("active");
    assertThat(kept.value().get(kept.valueSchema().indexOf("id"))).isEqualTo(1);
    assertThat(kept.value().get(kept.valueSchema().indexOf("active"))).isEqualTo(false);
    assertThat(DROPPING.decode(load("pg-delete.json", TOPIC, 0, 43)).value()).isNull();
  }

  @Test
  void aRewrittenDeleteCarriesItsRowAndATombstoneOnlyItsKey() {
    ChangeEvent flattened = KEEPING.decode(load("flat-delete.json", TOPIC, 0, 51));
    assertThat(flattened.op()).isEqualTo(Op.DELETE);
    assertThat(flattened.valueSchema().fieldNames()).contains("id", "name", "__deleted");

    ChangeEvent tombstone = KEEPING.decode(load("pg-tombstone.json", TOPIC, 0, 44));
    assertThat(tombstone.op()).isEqualTo(Op.DELETE);
    assertThat(tombstone.key()).isEqualTo(Row.of(1));
    assertThat(tombstone.value()).isNull();
  }
}
