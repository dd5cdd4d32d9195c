package io.mergesink.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.localconnect.Await;
import io.mergesink.localconnect.LocalConnect;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector on tables Spark wrote (merge-core's fixtures): each writable fixture takes an
 * update (in the partitioned table one that moves the row to another partition), an insert and a
 * delete through a running connector, reads back with Delta Kernel as the model says and keeps its
 * protocol and domain metadata; a table the sink cannot write fails the task when it opens,
 * naming the table and the feature, and is left untouched.
 */
class FixtureTablesIT {
  private static final List<String> WRITABLE = List.of("partitioned-table", "column-mapping-name-table", "column-mapping-id-table",
      "row-tracking-table", "clustered-table", "v2-checkpoint-table", "type-widening-table", "dv-table");
  private static final Duration CATCH_UP = Duration.ofMinutes(3);
  private static final long MILLIS_PER_DAY = 86_400_000L;

  @TempDir static Path tables;
  private static LocalConnect connect;

  @BeforeAll
  static void startCluster() {
    connect = LocalConnect.start(1);
  }

  @AfterAll
  static void stopCluster() {
    connect.close();
  }

  @Test
  void everyWritableFixtureTakesChangesThroughTheConnectorAndKeepsItsFeatures() throws Exception {
    Path root = tables.resolve("writable");
    Map<String, Map<Object, Row>> models = new LinkedHashMap<>();
    Map<String, KernelTables.KernelProtocol> protocols = new HashMap<>();
    Map<String, Optional<String>> clustering = new HashMap<>();
    for (String fixture : WRITABLE) {
      String table = FixtureTables.copy(fixture, root.resolve(fixture)).toString();
      protocols.put(fixture, KernelTables.protocol(table));
      clustering.put(fixture, KernelTables.domainMetadata(table, "delta.clustering"));
      Map<Object, Row> model = new HashMap<>();
      KernelTables.readRows(table).forEach(row -> model.put(row.get(0), row));
      models.put(fixture, model);
      connect.createTopic(fixture, 1);
      produceChanges(fixture, KernelTables.schema(table), model);
    }

    connect.startConnector("fixtures", sinkConfig("fixtures", root, String.join(",", WRITABLE)), 1);

    for (String fixture : WRITABLE) {
      String table = root.resolve(fixture).toString();
      long last = connect.recordCount(fixture) - 1;
      Await.until("txn version " + last + " in " + fixture, CATCH_UP,
          () -> KernelTables.txnVersion(table, "fixtures:" + fixture + ":0"), Optional.of(last)::equals);
      List<Row> rows = KernelTables.readRows(table);
      assertThat(rows).as(fixture + ": one live row per key").hasSize(models.get(fixture).size());
      assertThat(new HashSet<>(rows)).as(fixture).isEqualTo(new HashSet<>(models.get(fixture).values()));
      assertThat(KernelTables.protocol(table)).as(fixture + " protocol").isEqualTo(protocols.get(fixture));
      assertThat(KernelTables.domainMetadata(table, "delta.clustering")).as(fixture + " clustering").isEqualTo(clustering.get(fixture));
    }
  }

  @Test
  void aTableTheSinkCannotWriteFailsTheTaskAtOpenNamingTheFeature() throws Exception {
    Path root = tables.resolve("refused");
    Path table = FixtureTables.copy("constraints-table", root.resolve("constraints-table"));
    List<String> log = list(table.resolve("_delta_log"));
    connect.createTopic("constraints-table", 1);

    connect.cluster().configureConnector("refused", sinkConfig("refused", root, "constraints-table"));

    Await.until("the task to fail", LocalConnect.DEFAULT_TIMEOUT, () -> connect.status("refused").tasks(),
        tasks -> tasks.stream().anyMatch(task -> "FAILED".equals(task.state())));
    ConnectorStateInfo.TaskState task = connect.status("refused").tasks().get(0);
    assertThat(task.trace()).contains("table " + table + " uses writer features [checkConstraints], which MergeSink does not support");
    assertThat(list(table.resolve("_delta_log"))).isEqualTo(log);
  }

  /**
   * Sends an update of the first row (a changed value; in the partitioned table a new region), an
   * insert of a new key and a delete of the third row, and applies them to {@code model}.
   */
  private static void produceChanges(String topic, StructType schema, Map<Object, Row> model) {
    Schema key = SchemaBuilder.struct().field(schema.field(0).name(), connectSchema(schema.field(0))).build();
    Schema value = valueSchema(schema);
    List<Object> keys = new ArrayList<>(model.keySet());
    keys.sort(Comparator.comparing(Object::toString));
    Object[] updated = model.get(keys.get(0)).toArray();
    int changed = schema.indexOf("region") >= 0 ? schema.indexOf("region") : firstChangeable(schema);
    updated[changed] = schema.field(changed).type() == PrimitiveType.STRING
        ? (updated[changed] == null ? "us" : updated[changed] + "-moved")
        : ((BigDecimal) updated[changed]).add(BigDecimal.ONE);
    Object[] inserted = model.get(keys.get(1)).toArray();
    inserted[0] = 7_777L;
    for (Object[] row : List.of(updated, inserted)) {
      connect.produce(topic, 0, key, keyStruct(key, row[0]), value, struct(value, schema, row));
      model.put(row[0], Row.of(row));
    }
    connect.produce(topic, 0, key, keyStruct(key, keys.get(2)), null, null);
    model.remove(keys.get(2));
  }

  private static int firstChangeable(StructType schema) {
    for (int i = 1; i < schema.size(); i++) {
      if (schema.field(i).type() == PrimitiveType.STRING || schema.field(i).type() instanceof DecimalType) {
        return i;
      }
    }
    throw new IllegalStateException("no string or decimal column in " + schema);
  }

  private static Schema valueSchema(StructType schema) {
    SchemaBuilder builder = SchemaBuilder.struct().optional();
    for (StructField field : schema.fields()) {
      builder.field(field.name(), connectSchema(field));
    }
    return builder.build();
  }

  /** The Connect schema a source would send for a column, which the sink maps back to the column's type. */
  private static Schema connectSchema(StructField field) {
    DataType type = field.type();
    SchemaBuilder builder;
    if (type instanceof DecimalType decimal) {
      builder = Decimal.builder(decimal.scale()).parameter("connect.decimal.precision", Integer.toString(decimal.precision()));
    } else {
      builder = switch ((PrimitiveType) type) {
        case BOOLEAN -> SchemaBuilder.bool();
        case INTEGER -> SchemaBuilder.int32();
        case LONG -> SchemaBuilder.int64();
        case DOUBLE -> SchemaBuilder.float64();
        case STRING -> SchemaBuilder.string();
        case DATE -> Date.builder();
        case TIMESTAMP -> Timestamp.builder();
        default -> throw new IllegalArgumentException("no Connect schema in this test for " + type);
      };
    }
    return field.nullable() ? builder.optional().build() : builder.build();
  }

  private static Struct keyStruct(Schema key, Object id) {
    return new Struct(key).put(key.fields().get(0).name(), id);
  }

  private static Struct struct(Schema value, StructType schema, Object[] row) {
    Struct struct = new Struct(value);
    for (int i = 0; i < row.length; i++) {
      Object v = row[i];
      if (v != null && schema.field(i).type() == PrimitiveType.DATE) {
        v = new java.util.Date((Integer) v * MILLIS_PER_DAY);
      } else if (v != null && schema.field(i).type() == PrimitiveType.TIMESTAMP) {
        v = new java.util.Date((Long) v / 1000);
      }
      struct.put(schema.field(i).name(), v);
    }
    return struct;
  }

  private static Map<String, String> sinkConfig(String name, Path root, String topics) {
    Map<String, String> config = new HashMap<>();
    config.put("name", name);
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topics", topics);
    config.put("table.root", root.toString());
    config.put("commit.interval.ms", "500");
    config.put("checkpoint.interval", "1");
    config.put("primary.key.fields", "id"); // Spark records no primary key
    return config;
  }

  private static List<String> list(Path dir) throws java.io.IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
