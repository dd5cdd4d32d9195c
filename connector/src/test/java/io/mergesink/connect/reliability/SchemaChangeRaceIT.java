package io.mergesink.connect.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.localconnect.debezium.CustomerEvents;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema change by one task while another holds rows of the old schema (docs/design.md, "Schema
 * evolution"): task A sees the source's {@code ALTER TABLE ... ADD COLUMN tier} first and adds the
 * column; task B's buffered rows of its own partition are one column short when its commit loses
 * the race to A's metadata commit. B must plan again with its rows realigned to the new schema (the
 * new column null), not fail, and fit the old-schema rows that follow to the new schema.
 */
class SchemaChangeRaceIT {
  private static final int KEYS = 100;
  private static final long EVOLVED_ID = 0;
  private static final long EVOLVED_TS = 1_767_225_700_000L;
  private static final long EVOLVED_UPDATED_AT = 1_767_225_700_000_000L;
  private static final Schema EVOLVED_ROW = SchemaBuilder.struct().name("pg.public.customers.Value").optional()
      .field("id", Schema.INT64_SCHEMA)
      .field("name", Schema.OPTIONAL_STRING_SCHEMA)
      .field("balance", Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
      .field("updated_at", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").version(1).optional().build())
      .field("tier", Schema.OPTIONAL_STRING_SCHEMA)
      .build();
  private static final Schema SOURCE = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source")
      .field("ts_ms", Schema.INT64_SCHEMA)
      .field("db", Schema.STRING_SCHEMA)
      .field("schema", Schema.STRING_SCHEMA)
      .field("table", Schema.STRING_SCHEMA)
      .build();
  private static final Schema EVOLVED_ENVELOPE = SchemaBuilder.struct().name("pg.public.customers.Envelope")
      .field("before", EVOLVED_ROW)
      .field("after", EVOLVED_ROW)
      .field("source", SOURCE)
      .field("op", Schema.STRING_SCHEMA)
      .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
      .build();

  @TempDir Path tables;

  @Test
  void aTaskHoldingRowsOfTheOldSchemaCommitsThemAfterAnotherTaskAddedAColumn() {
    RecordLog log = new RecordLog(Workloads.TOPIC, 2);
    Map<String, String> config = Workloads.localConfig(tables, 100_000);
    Map<TopicPartition, Long> group = new HashMap<>();
    TopicPartition p0 = new TopicPartition(Workloads.TOPIC, 0);
    TopicPartition p1 = new TopicPartition(Workloads.TOPIC, 1);
    for (long id = 0; id < KEYS; id++) {
      log.upsert(id);
    }
    TaskDriver a = new TaskDriver("task-a", config, log, group);
    TaskDriver b = new TaskDriver("task-b", config, log, group);
    a.open(List.of(p0));
    b.open(List.of(p1));
    a.runToEnd(50, 100);
    b.runToEnd(50, 100);

    // B buffers updates of its keys in the old schema ...
    for (long id = 0; id < KEYS; id++) {
      if (log.partitionOf(id) == 1) {
        log.upsert(id);
      }
    }
    while (b.poll(50) > 0) {
      // buffer only
    }
    // ... while A sees the new column first, adds it and commits.
    log.append(0, CustomerEvents.KEY, CustomerEvents.key(EVOLVED_ID), EVOLVED_ENVELOPE, evolvedUpdate());
    a.runToEnd(50, 100);
    assertThat(KernelTables.schema(table()).fieldNames()).as("A added the column").contains("tier");

    b.preCommit();
    // B's source is still behind: more rows of the old schema, made for the table's new schema now
    int nth = 0;
    for (long id = 0; id < KEYS; id++) {
      if (log.partitionOf(id) == 1 && nth++ % 2 == 0) {
        log.upsert(id);
      }
    }
    b.runToEnd(50, 100);
    a.stop();
    b.stop();

    Set<Row> expected = new HashSet<>();
    log.upserts().rows().forEach((id, columns) -> expected.add(id == EVOLVED_ID ? evolvedRow()
        : withTier(Row.of(columns.values().toArray()), null)));
    assertThat(new HashSet<>(KernelTables.readRows(table()))).as("rows read by Delta Kernel").isEqualTo(expected);
    assertThat(KernelTables.readRows(table())).as("one live row per key").hasSize(expected.size());
    assertThat(KernelTables.schema(table()).field("tier")).contains(new StructField("tier", PrimitiveType.STRING, true));
    for (TopicPartition partition : log.topicPartitions()) {
      assertThat(KernelTables.txnVersion(table(), Workloads.CONNECTOR + ":" + partition.topic() + ":" + partition.partition()))
          .as("txn version of " + partition).contains(log.endOffset(partition.partition()) - 1);
    }
  }

  private String table() {
    return tables.resolve(Workloads.TOPIC).toString();
  }

  private static Struct evolvedUpdate() {
    Struct after = new Struct(EVOLVED_ROW).put("id", EVOLVED_ID).put("name", "evolved").put("balance", BigDecimal.valueOf(4200, 2))
        .put("updated_at", EVOLVED_UPDATED_AT).put("tier", "gold");
    Struct source = new Struct(SOURCE).put("ts_ms", EVOLVED_TS).put("db", "shop").put("schema", "public").put("table", "customers");
    return new Struct(EVOLVED_ENVELOPE).put("after", after).put("source", source).put("op", "u").put("ts_ms", EVOLVED_TS);
  }

  private static Row evolvedRow() {
    return Row.of(EVOLVED_ID, "evolved", BigDecimal.valueOf(4200, 2), EVOLVED_UPDATED_AT, "gold");
  }

  private static Row withTier(Row row, String tier) {
    Object[] values = new Object[row.size() + 1];
    System.arraycopy(row.toArray(), 0, values, 0, row.size());
    values[row.size()] = tier;
    return Row.of(values);
  }
}
