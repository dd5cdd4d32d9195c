package io.mergesink.ingest.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

class StructTypeCacheTest {
  private final StructTypeCache cache = new StructTypeCache();

  @Test
  void anEvolvedSchemaGetsItsOwnTypeWhileTheOldOneKeepsItsType() {
    Schema v1 = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    Schema v2 = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).field("email", Schema.OPTIONAL_STRING_SCHEMA).build();

    assertThat(cache.structType(v1)).isEqualTo(StructType.of(new StructField("id", PrimitiveType.LONG, false)));
    assertThat(cache.structType(v2)).isEqualTo(StructType.of(
        new StructField("id", PrimitiveType.LONG, false), new StructField("email", PrimitiveType.STRING, true)));
    assertThat(cache.structType(v1)).isEqualTo(StructType.of(new StructField("id", PrimitiveType.LONG, false)));
  }

  @Test
  void manyDistinctSchemasStillConvertEachCorrectly() {
    for (int i = 0; i < 1_000; i++) {
      Schema schema = SchemaBuilder.struct().field("c" + i, Schema.OPTIONAL_INT32_SCHEMA).build();
      assertThat(cache.structType(schema)).isEqualTo(StructType.of(new StructField("c" + i, PrimitiveType.INTEGER, true)));
    }
  }
}
