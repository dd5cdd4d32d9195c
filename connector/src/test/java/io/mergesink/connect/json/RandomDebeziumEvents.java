package io.mergesink.connect.json;

import io.mergesink.localconnect.debezium.DebeziumTable;
import io.mergesink.localconnect.debezium.SourceField;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Random Debezium change events: envelopes ({@code before}, {@code after}, {@code source},
 * {@code op}, {@code ts_ms}, {@code transaction}) of tables whose columns are drawn from every type
 * Debezium emits (Connect primitives and logical types, {@code io.debezium.time.*},
 * {@code VariableScaleDecimal}, {@code Json}, {@code Uuid}, {@code Enum}, {@code Bits}, geometry
 * structs, arrays, maps with string and int keys, nested structs), optional or required, some with
 * defaults and docs, and values at the edges (extreme numbers, empty and escaped strings, nulls).
 * A table can {@link #evolve}: a column added, as {@code ALTER TABLE ADD COLUMN} does.
 */
final class RandomDebeziumEvents {
  private static final String[] STRINGS = {"", "plain", "quote \" and backslash \\", "tab\tnewline\nreturn\r", "unicode é ß 中文 😀",
      "\u0000 control \u001f", "__debezium_unavailable_value", "{\"json\": [1, 2]}", "a/b\\c"};
  private static final int MAX_COLUMNS = 12;
  private static final int MAX_ELEMENTS = 4;

  private final Random random;

  RandomDebeziumEvents(long seed) {
    this.random = new Random(seed);
  }

  /** A table {@code public.<table>} of server {@code server}: a required int64 key {@code id} and random columns. */
  DebeziumTable table(String table) {
    DebeziumTable.Builder builder = DebeziumTable.builder("server", "public", table).column("id", Schema.INT64_SCHEMA).key("id")
        .source(SourceField.VERSION, SourceField.CONNECTOR, SourceField.TS_MS, SourceField.SNAPSHOT, SourceField.LSN)
        .envelopeVersion(2).transaction();
    int columns = 1 + random.nextInt(MAX_COLUMNS);
    for (int i = 0; i < columns; i++) {
      builder.column("c" + i, column(2));
    }
    return builder.build();
  }

  /** The table with one more optional column, as Debezium describes it after ALTER TABLE ADD COLUMN. */
  DebeziumTable evolve(DebeziumTable table) {
    return table.withColumn("added" + table.rowSchema().fields().size(), optional(column(1)));
  }

  /** A create, read, update or delete event of row {@code id}. */
  Struct event(DebeziumTable table, long id) {
    Schema row = table.rowSchema();
    String op = new String[] {"c", "r", "u", "d"}[random.nextInt(4)];
    Struct source = table.source(random.nextLong()).put("lsn", random.nextBoolean() ? null : random.nextLong());
    if (random.nextBoolean()) {
      source.put("snapshot", op.equals("r") ? "true" : "false");
    }
    Long tsMs = random.nextBoolean() ? null : random.nextLong();
    Struct before = op.equals("c") || op.equals("r") ? null : row(row, id);
    Struct after = op.equals("d") ? null : row(row, id);
    Struct event = table.envelope(op, before, after, source, tsMs);
    if (random.nextInt(4) == 0) {
      event.put("transaction", new Struct(table.envelopeSchema().field("transaction").schema()).put("id", string())
          .put("total_order", random.nextLong()));
    }
    return event;
  }

  private Struct row(Schema row, long id) {
    Struct struct = new Struct(row).put("id", id);
    for (Field field : row.fields()) {
      if (!field.name().equals("id")) {
        struct.put(field, value(field.schema()));
      }
    }
    return struct;
  }

  private Schema column(int depth) {
    int kinds = depth > 0 ? 30 : 26;
    SchemaBuilder builder = switch (random.nextInt(kinds)) {
      case 0 -> SchemaBuilder.int8();
      case 1 -> SchemaBuilder.int16();
      case 2 -> SchemaBuilder.int32();
      case 3 -> SchemaBuilder.int64();
      case 4 -> SchemaBuilder.float32();
      case 5 -> SchemaBuilder.float64();
      case 6 -> SchemaBuilder.bool();
      case 7, 8 -> SchemaBuilder.string();
      case 9 -> SchemaBuilder.bytes();
      case 10, 11 -> Decimal.builder(random.nextInt(6)).parameter("connect.decimal.precision", Integer.toString(10 + random.nextInt(20)));
      case 12 -> Date.builder();
      case 13 -> Time.builder();
      case 14 -> Timestamp.builder();
      case 15 -> SchemaBuilder.int32().name("io.debezium.time.Date").version(1);
      case 16 -> SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1);
      case 17 -> SchemaBuilder.int64().name("io.debezium.time.NanoTimestamp").version(1);
      case 18 -> SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").version(1);
      case 19 -> SchemaBuilder.int64().name("io.debezium.time.MicroTime").version(1);
      case 20 -> SchemaBuilder.struct().name("io.debezium.data.VariableScaleDecimal").version(1).doc("Variable scaled decimal")
          .field("scale", Schema.INT32_SCHEMA).field("value", Schema.BYTES_SCHEMA);
      case 21 -> SchemaBuilder.string().name("io.debezium.data.Json").version(1);
      case 22 -> SchemaBuilder.string().name("io.debezium.data.Uuid").version(1);
      case 23 -> SchemaBuilder.string().name("io.debezium.data.Enum").version(1).parameter("allowed", "red,green,blue");
      case 24 -> SchemaBuilder.bytes().name("io.debezium.data.Bits").version(1).parameter("length", "8");
      case 25 -> SchemaBuilder.struct().name("io.debezium.data.geometry.Geometry").version(1)
          .field("wkb", Schema.BYTES_SCHEMA).field("srid", Schema.OPTIONAL_INT32_SCHEMA);
      case 26 -> SchemaBuilder.array(column(depth - 1));
      case 27 -> SchemaBuilder.map(Schema.STRING_SCHEMA, column(depth - 1));
      case 28 -> SchemaBuilder.map(random.nextBoolean() ? Schema.INT32_SCHEMA : Schema.OPTIONAL_INT64_SCHEMA, column(depth - 1));
      default -> nested(depth - 1);
    };
    if (random.nextInt(3) > 0) {
      builder.optional();
    }
    if (random.nextInt(8) == 0 && builder.doc() == null) {
      builder.doc("column doc \"" + random.nextInt(100) + "\"");
    }
    if (random.nextInt(5) == 0 && builder.type() != Schema.Type.STRUCT && builder.type() != Schema.Type.MAP && builder.type() != Schema.Type.ARRAY) {
      builder.defaultValue(value(builder.build()));
    }
    return builder.build();
  }

  private SchemaBuilder nested(int depth) {
    SchemaBuilder struct = SchemaBuilder.struct().name("nested" + random.nextInt(3));
    int fields = 1 + random.nextInt(3);
    for (int i = 0; i < fields; i++) {
      struct.field("n" + i, column(depth));
    }
    return struct;
  }

  private static Schema optional(Schema schema) {
    if (schema.isOptional()) {
      return schema;
    }
    SchemaBuilder builder = new SchemaBuilder(schema.type()).optional();
    builder.name(schema.name()).version(schema.version()).doc(schema.doc());
    if (schema.parameters() != null) {
      builder.parameters(schema.parameters());
    }
    switch (schema.type()) {
      case STRUCT -> schema.fields().forEach(field -> builder.field(field.name(), field.schema()));
      case ARRAY -> {
        return SchemaBuilder.array(schema.valueSchema()).optional().build();
      }
      case MAP -> {
        return SchemaBuilder.map(schema.keySchema(), schema.valueSchema()).optional().build();
      }
      default -> { }
    }
    return builder.build();
  }

  /** A random value of {@code schema}; null for an optional schema now and then. */
  Object value(Schema schema) {
    if (schema.isOptional() && random.nextInt(5) == 0) {
      return null;
    }
    String name = schema.name();
    if (Decimal.LOGICAL_NAME.equals(name)) {
      int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
      return new BigDecimal(new BigInteger(random.nextInt(100) + 1, random).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), scale);
    } else if (Date.LOGICAL_NAME.equals(name)) {
      return Date.toLogical(schema, random.nextInt(100_000) - 50_000);
    } else if (Time.LOGICAL_NAME.equals(name)) {
      return Time.toLogical(schema, random.nextInt(86_400_000));
    } else if (Timestamp.LOGICAL_NAME.equals(name)) {
      return Timestamp.toLogical(schema, random.nextLong() / 1_000);
    }
    return switch (schema.type()) {
      case INT8 -> (byte) random.nextInt();
      case INT16 -> (short) random.nextInt();
      case INT32 -> pick(new Integer[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt()});
      case INT64 -> pick(new Long[] {0L, Long.MIN_VALUE, Long.MAX_VALUE, (long) Integer.MAX_VALUE + 1, random.nextLong()});
      case FLOAT32 -> pick(new Float[] {0f, -0f, Float.MIN_VALUE, Float.MAX_VALUE, 1.1f, random.nextFloat() * 1e6f - 5e5f});
      case FLOAT64 -> pick(new Double[] {0d, -0d, Double.MIN_VALUE, Double.MAX_VALUE, 0.1, 1e-300, random.nextGaussian() * 1e12});
      case BOOLEAN -> random.nextBoolean();
      case STRING -> string();
      case BYTES -> {
        byte[] bytes = new byte[random.nextInt(20)];
        random.nextBytes(bytes);
        yield bytes;
      }
      case ARRAY -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(MAX_ELEMENTS); i > 0; i--) {
          list.add(value(schema.valueSchema()));
        }
        yield list;
      }
      case MAP -> {
        Map<Object, Object> map = new HashMap<>();
        for (int i = random.nextInt(MAX_ELEMENTS); i > 0; i--) {
          Object key = value(schema.keySchema());
          map.put(key, value(schema.valueSchema()));
        }
        yield map;
      }
      case STRUCT -> {
        Struct struct = new Struct(schema);
        for (Field field : schema.fields()) {
          struct.put(field, value(field.schema()));
        }
        yield struct;
      }
    };
  }

  private String string() {
    return random.nextInt(3) == 0 ? STRINGS[random.nextInt(STRINGS.length)] : "s" + random.nextInt(1_000_000);
  }

  private <T> T pick(T[] choices) {
    return choices[random.nextInt(choices.length)];
  }
}
