package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.ingest.config.PassThroughOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code table.properties.delta.*} in Connect's {@code validate} (docs/design.md, "Table
 * properties"): a property that would enable a table feature MergeSink cannot honour, contradicts
 * the write mode, or that Delta does not know is refused, naming the property; the ones MergeSink
 * honours or that change nothing it must do pass.
 */
class TablePropertiesValidationTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}={1} ({2}) is refused")
  @CsvSource(delimiter = '|', value = {
      "delta.feature.clustering|supported|upsert/deletion-vectors|does not create them",
      "delta.columnMapping.maxColumnId|9|upsert/deletion-vectors|largest column id",
      "delta.checkpoint.writeStatsAsStruct|true|upsert/deletion-vectors|statistics as JSON",
      "delta.appendOnly|true|upsert/deletion-vectors|write.mode=append",
      "delta.appendOnly|true|upsert/copy-on-write|write.mode=append",
      "delta.enableDeletionVectors|false|upsert/deletion-vectors|merge.strategy=copy-on-write",
      "delta.feature.noSuchFeature|supported|upsert/deletion-vectors|does not know this feature",
      "delta.feature.deletionVectors|maybe|upsert/deletion-vectors|expected 'supported'",
      "delta.setTransactionRetentionDuration|interval 7 days|upsert/deletion-vectors|Kafka offsets",
      "delta.minWriterVersion|7|upsert/deletion-vectors|delta.feature.<name>=supported",
      "delta.enableIcebergCompatV2|true|upsert/deletion-vectors|Iceberg",
      "delta.constraints.positive|id > 0|upsert/deletion-vectors|CHECK constraints",
      "delta.noSuchProperty|1|upsert/deletion-vectors|not a Delta table property",
      "delta.appendOnly|yes|append/deletion-vectors|expected true or false"})
  void aPropertyMergeSinkCannotHonourIsRefusedByName(String key, String value, String writes, String reason) {
    Map<String, List<String>> errors = errors(props(writes, key, value));

    String option = PassThroughOptions.TABLE_PROPERTIES_PREFIX + key;
    assertThat(errors).containsOnlyKeys(option);
    assertThat(errors.get(option)).singleElement().asString().contains(option + "=" + value).contains(reason);
  }

  @ParameterizedTest(name = "{0}={1} ({2}) is accepted")
  @CsvSource(delimiter = '|', value = {
      "delta.appendOnly|true|append/deletion-vectors",
      "delta.appendOnly|false|upsert/deletion-vectors",
      "delta.enableDeletionVectors|true|upsert/copy-on-write",
      "delta.enableDeletionVectors|false|upsert/copy-on-write",
      "delta.enableDeletionVectors|TRUE|upsert/deletion-vectors",
      "delta.enableChangeDataFeed|false|upsert/deletion-vectors",
      "delta.enableChangeDataFeed|true|upsert/deletion-vectors",
      "delta.enableChangeDataFeed|true|upsert/copy-on-write",
      "delta.feature.changeDataFeed|supported|upsert/deletion-vectors",
      "delta.columnMapping.mode|none|upsert/deletion-vectors",
      "delta.enableTypeWidening|false|upsert/deletion-vectors",
      "delta.enableRowTracking|false|upsert/deletion-vectors",
      "delta.checkpointPolicy|classic|upsert/deletion-vectors",
      "delta.feature.timestampNtz|supported|upsert/copy-on-write",
      "delta.feature.deletionVectors|supported|append/copy-on-write",
      "delta.feature.domainMetadata|supported|upsert/deletion-vectors",
      "delta.logRetentionDuration|interval 7 days|upsert/deletion-vectors",
      "delta.deletedFileRetentionDuration|interval 1 week|upsert/deletion-vectors",
      "delta.checkpointInterval|20|upsert/deletion-vectors",
      "delta.dataSkippingNumIndexedCols|8|upsert/deletion-vectors",
      "delta.dataSkippingStatsColumns|id,name|upsert/deletion-vectors",
      "delta.checkpoint.writeStatsAsStruct|false|upsert/deletion-vectors",
      "delta.columnMapping.mode|name|upsert/deletion-vectors",
      "delta.columnMapping.mode|id|append/copy-on-write",
      "delta.enableTypeWidening|true|upsert/copy-on-write",
      "delta.enableRowTracking|true|upsert/deletion-vectors",
      "delta.checkpointPolicy|v2|upsert/deletion-vectors",
      "delta.enableInCommitTimestamps|true|upsert/deletion-vectors",
      "owner|data-platform|upsert/deletion-vectors"})
  void aPropertyMergeSinkHonoursOrThatChangesNothingPasses(String key, String value, String writes) {
    assertThat(errors(props(writes, key, value))).isEmpty();
  }

  private Map<String, String> props(String writes, String key, String value) {
    Map<String, String> props = MergeSinkConfigTest.minimal();
    props.put("table.root", dir.resolve("lake").toString());
    props.put("write.mode", writes.split("/")[0]);
    props.put("merge.strategy", writes.split("/")[1]);
    props.put(PassThroughOptions.TABLE_PROPERTIES_PREFIX + key, value);
    return props;
  }

  private static Map<String, List<String>> errors(Map<String, String> props) {
    Config config = new MergeSinkConnector().validate(props);
    return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }
}
