package io.mergesink.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.PartitionTransform;
import io.mergesink.ingest.options.PartitionTransform.Function;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.WriteMode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class IngestConfigTest {
  static Map<String, String> minimal() {
    Map<String, String> props = new HashMap<>();
    props.put("txn.app.id", "orders-sink");
    props.put("table.root", "/tmp/lake");
    return props;
  }

  @Test
  void defaults() {
    IngestConfig config = new IngestConfig(minimal());

    assertThat(config.tableRoot()).isEqualTo("/tmp/lake");
    assertThat(config.tableNameTemplate().format()).isEqualTo("${topic}");
    assertThat(config.writeMode()).isEqualTo(WriteMode.UPSERT);
    assertThat(config.mergeStrategy()).isEqualTo(MergeStrategy.DELETION_VECTORS);
    assertThat(config.primaryKeyMode()).isEqualTo(PrimaryKeyMode.RECORD_KEY);
    assertThat(config.primaryKeyFields()).isEmpty();
    assertThat(config.deleteEnabled()).isTrue();
    assertThat(config.truncateEnabled()).isFalse();
    assertThat(config.schemaEvolution()).isEqualTo(SchemaEvolution.ADD_COLUMNS);
    assertThat(config.commitIntervalMs()).isEqualTo(30_000);
    assertThat(config.bufferMaxRecords()).isEqualTo(100_000);
    assertThat(config.bufferMaxBytes()).isEqualTo(128L * 1024 * 1024);
    assertThat(config.lookupScope()).isEqualTo(LookupScope.PARTITION);
    assertThat(config.parquetCompression()).isEqualTo(ParquetCompression.ZSTD);
    assertThat(config.fileTargetSizeBytes()).isEqualTo(128L * 1024 * 1024);
    assertThat(config.checkpointInterval()).isEqualTo(10);
    assertThat(config.compactionEnabled()).isTrue();
    assertThat(config.compactionDvRatio()).isEqualTo(0.25);
    assertThat(config.compactionMinFiles()).isEqualTo(10);
    assertThat(config.tableFormat()).isEqualTo(TableFormatName.DELTA);
    assertThat(config.txnAppId()).isEqualTo("orders-sink");
    assertThat(config.tableProperties()).isEmpty();
  }

  @Test
  void enumsAreCaseInsensitiveAndPrefixesPassThrough() {
    Map<String, String> props = minimal();
    props.put("table.format", "Delta");
    props.put("write.mode", "APPEND");
    props.put("merge.strategy", "Copy-On-Write");
    props.put("primary.key.mode", "record_value");
    props.put("primary.key.fields", "tenant, id");
    props.put("parquet.compression", "LZ4_RAW");
    props.put("txn.app.id", "shared-id");
    props.put("table.properties.delta.appendOnly", "false");
    props.put("hadoop.fs.s3a.endpoint", "http://minio:9000");
    IngestConfig config = new IngestConfig(props);

    assertThat(config.tableFormat()).isEqualTo(TableFormatName.DELTA);
    assertThat(config.writeMode()).isEqualTo(WriteMode.APPEND);
    assertThat(config.mergeStrategy()).isEqualTo(MergeStrategy.COPY_ON_WRITE);
    assertThat(config.ingestOptions().tableStrategy()).as("an append table has no merge strategy").isEmpty();
    assertThat(config.primaryKeyFields()).isEqualTo(List.of("tenant", "id"));
    assertThat(config.parquetCompression()).isEqualTo(ParquetCompression.LZ4_RAW);
    assertThat(config.txnAppId()).isEqualTo("shared-id");
    assertThat(config.tableProperties()).isEqualTo(Map.of("delta.appendOnly", "false"));
    assertThat(config.hadoopProperties()).isEqualTo(Map.of("fs.s3a.endpoint", "http://minio:9000"));
  }

  @Test
  void primaryKeyFieldsMustBeDistinctNames() {
    assertThat(new IngestConfig(with("primary.key.fields", "tenant,id")).primaryKeyFields())
        .containsExactly("tenant", "id");
    assertThatThrownBy(() -> new IngestConfig(with("primary.key.fields", "id, tenant, id")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Invalid value [id, tenant, id] for configuration primary.key.fields: expected distinct column "
            + "names, found id more than once");
    assertThatThrownBy(() -> new IngestConfig(with("primary.key.fields", "id,,tenant")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("primary.key.fields: expected column names, found an empty entry");
  }

  @Test
  void invalidSingleValuesAreRejectedWithTheOptionName() {
    assertThatThrownBy(() -> new IngestConfig(with("write.mode", "merge"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("Invalid value merge for configuration write.mode");
    assertThatThrownBy(() -> new IngestConfig(with("table.format", "hudi"))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("Invalid value hudi for configuration table.format: expected one of delta, iceberg");
    assertThatThrownBy(() -> new IngestConfig(with("commit.interval.ms", "-1")))
        .hasMessageContaining("Invalid value -1 for configuration commit.interval.ms: Value must be at least 0");
    assertThatThrownBy(() -> new IngestConfig(with("compaction.dv.ratio", "1.5")))
        .hasMessageContaining("compaction.dv.ratio");
    assertThatThrownBy(() -> new IngestConfig(with("table.name.format", "${db}/${topic}")))
        .hasMessageContaining("Invalid value ${db}/${topic} for configuration table.name.format: unknown placeholder ${db}");
    Map<String, String> noRoot = minimal();
    noRoot.remove("table.root");
    assertThatThrownBy(() -> new IngestConfig(noRoot))
        .hasMessageContaining("Missing required configuration \"table.root\"");
  }

  private static Map<String, String> with(String key, String value) {
    Map<String, String> props = minimal();
    props.put(key, value);
    return props;
  }

  @Test
  void onlyAppendTablesWithBeforeImagesDecodeDeletesWithThem() {
    assertThat(withDeleteImage("append", "before").ingestOptions().decoderOptions().deleteImages()).isTrue();
    assertThat(withDeleteImage("append", "key").ingestOptions().decoderOptions().deleteImages()).isFalse();
    assertThat(withDeleteImage("upsert", "before").ingestOptions().decoderOptions().deleteImages()).isFalse();
  }

  @Test
  void appendTablesSkipTheTombstoneAfterADeleteUnlessTold() {
    assertThat(new IngestConfig(minimal()).ingestOptions().appendTombstones()).isEqualTo(AppendTombstones.SKIP_AFTER_DELETE);
    assertThat(new IngestConfig(with(WriteOptions.APPEND_TOMBSTONES, "record")).ingestOptions().appendTombstones())
        .isEqualTo(AppendTombstones.RECORD);
    assertThatThrownBy(() -> new IngestConfig(with(WriteOptions.APPEND_TOMBSTONES, "drop")))
        .isInstanceOf(ConfigException.class).hasMessageContaining(WriteOptions.APPEND_TOMBSTONES);
  }

  private static IngestConfig withDeleteImage(String writeMode, String deleteImage) {
    Map<String, String> props = minimal();
    props.put(WriteOptions.WRITE_MODE, writeMode);
    props.put(WriteOptions.APPEND_DELETE_IMAGE, deleteImage);
    return new IngestConfig(props);
  }

  @Test
  void theEngineGetsTheSameDefaultsAsItsOptions() {
    IngestOptions mapped = new IngestConfig(minimal()).ingestOptions();

    assertThat(mapped).usingRecursiveComparison().isEqualTo(IngestOptions.builder("/tmp/lake", "orders-sink").build());
    assertThat(mapped.tableFormat()).isEqualTo(TableFormatName.DELTA);
  }

  @Test
  void theTxnAppIdIsRequired() {
    Map<String, String> props = minimal();
    props.remove("txn.app.id");
    IngestConfig config = new IngestConfig(props);

    assertThatThrownBy(config::txnAppId).isInstanceOf(ConfigException.class)
        .hasMessageContaining("txn.app.id").hasMessageContaining("is required");
    assertThatThrownBy(config::ingestOptions).isInstanceOf(ConfigException.class).hasMessageContaining("txn.app.id");
  }

  @Test
  void icebergCatalogOptionsPassThroughWithTheirNames() {
    Map<String, String> props = minimal();
    props.put("table.format", "iceberg");
    props.put("iceberg.catalog", "lake");
    props.put("iceberg.catalog.type", "rest");
    props.put("iceberg.catalog.uri", "http://catalog:8181");
    props.put("iceberg.catalog.credential", "client:secret");
    props.put("iceberg.tables.default-namespace", "cdc");

    IcebergOptions iceberg = new IngestConfig(props).ingestOptions().iceberg();

    assertThat(iceberg.catalogName()).isEqualTo("lake");
    assertThat(iceberg.catalogProperties()).containsOnly(Map.entry("type", "rest"), Map.entry("uri", "http://catalog:8181"),
        Map.entry("credential", "client:secret"));
    assertThat(iceberg.defaultNamespace()).isEqualTo("cdc");
  }

  @Test
  void icebergTablesTakeHistoryOrderingBySourcePositionAndSoftDeletes() {
    List<Map<String, String>> taken = List.of(Map.of("write.mode", "history"), Map.of("write.mode", "history",
        "upsert.order.by", "source.lsn"), Map.of("upsert.order.by", "source.lsn"), Map.of("delete.mode", "soft"));
    taken.forEach(options -> {
      Map<String, String> props = minimal();
      props.put("table.format", "iceberg");
      props.putAll(options);
      assertThatCode(() -> new IngestConfig(props).ingestOptions()).as(options.toString()).doesNotThrowAnyException();
    });
  }

  @Test
  void partitionTransformsKeepTheirCommasAndGoToIcebergTables() {
    Map<String, String> props = minimal();
    props.put("table.format", "iceberg");
    props.put("partition.fields", "region, day(created_at),bucket(16, id) ,truncate(4,name)");

    assertThat(new IngestConfig(props).ingestOptions().partitionFields()).containsExactly(
        PartitionField.identity("region"),
        new PartitionField("created_at", Optional.empty(), Optional.of(new PartitionTransform(Function.DAY, OptionalInt.empty()))),
        new PartitionField("id", Optional.empty(), Optional.of(new PartitionTransform(Function.BUCKET, OptionalInt.of(16)))),
        new PartitionField("name", Optional.empty(), Optional.of(new PartitionTransform(Function.TRUNCATE, OptionalInt.of(4)))));
  }

  @Test
  void partitionFieldsOfTheOtherFormatAreRefusedWithWhatThisOneTakes() {
    Map<String, String> iceberg = minimal();
    iceberg.put("table.format", "iceberg");
    iceberg.put("partition.fields", "order_day=CAST(created_at AS DATE)");
    assertThatThrownBy(() -> new IngestConfig(iceberg).ingestOptions()).isInstanceOf(ConfigException.class)
        .hasMessageContaining("order_day").hasMessageContaining("day(c)");

    Map<String, String> delta = minimal();
    delta.put("partition.fields", "bucket(16, id)");
    assertThatThrownBy(() -> new IngestConfig(delta).ingestOptions()).isInstanceOf(ConfigException.class)
        .hasMessageContaining("id_bucket is an Iceberg partition transform").hasMessageContaining("CAST(c AS DATE)");
  }

  @Test
  void malformedPartitionTransformsAreRefusedNamingTheEntry() {
    Map<String, String> cases = Map.of(
        "bucket(id)", "bucket takes a positive width first",
        "day(7, created_at)", "day takes only a column",
        "bucket(0, id)", "bucket takes a positive width first",
        "days(created_at)", "is not a partition transform",
        "day(created_at", "unbalanced parentheses",
        "day(created_at),created_at_day", "named more than once");
    cases.forEach((value, message) -> {
      Map<String, String> props = minimal();
      props.put("table.format", "iceberg");
      props.put("partition.fields", value);
      assertThatThrownBy(() -> new IngestConfig(props)).as(value).isInstanceOf(ConfigException.class)
          .hasMessageContaining("partition.fields").hasMessageContaining(message);
    });
  }

  @Test
  void cutsNeedTheTransactionTopicsEnds() {
    Map<String, String> props = new HashMap<>(minimal());
    props.put(TransactionOptions.CUT_INTERVAL, "60000");
    assertThatThrownBy(() -> new IngestConfig(props).ingestOptions()).isInstanceOf(ConfigException.class)
        .hasMessageContaining("transaction.kafka.bootstrap.servers");

    props.put(TransactionOptions.KAFKA_PREFIX + "bootstrap.servers", "kafka:9092");
    TransactionOptions transactions = new IngestConfig(props).ingestOptions().transactions();
    assertThat(transactions.cuts()).isTrue();
    assertThat(transactions.cutInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(new IngestConfig(minimal()).ingestOptions().transactions().cuts()).as("by default").isFalse();
  }
}
