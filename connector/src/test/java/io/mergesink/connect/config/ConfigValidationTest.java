package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.connect.MergeSinkConnector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigValidationTest {
  @TempDir
  Path dir;

  private Map<String, List<String>> errors(Map<String, String> props) {
    Config config = new MergeSinkConnector().validate(props);
    return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  private Map<String, String> props() {
    Map<String, String> props = MergeSinkConfigTest.minimal();
    props.put("table.root", dir.resolve("lake").toString());
    return props;
  }

  @Test
  void validConfigurationHasNoErrors() {
    assertThat(errors(props())).isEmpty();
    Map<String, String> appendCow = props();
    appendCow.put("write.mode", "append");
    appendCow.put("merge.strategy", "copy-on-write");
    assertThat(errors(appendCow)).isEmpty();
    Map<String, String> history = props();
    history.put("write.mode", "history");
    assertThat(errors(history)).isEmpty();
  }

  @Test
  void aHiveCatalogNeedsAThriftUriAndDeltaTables() {
    Map<String, String> props = props();
    props.put("catalog.type", "hive");
    assertThat(errors(props).get("catalog.uri")).containsExactly("catalog.uri must be the Hive Metastore's thrift://host:port"
        + " with catalog.type=hive, got ''");
    props.put("catalog.uri", "thrift://metastore:9083");
    assertThat(errors(props)).isEmpty();
    props.put("table.format", "iceberg");
    assertThat(errors(props).get("catalog.type")).containsExactly("catalog.type registers Delta tables; Iceberg tables live"
        + " in their own catalog (iceberg.catalog.*)");
  }

  @Test
  void recordValueWithoutKeyFieldsIsReportedOnPrimaryKeyFields() {
    Map<String, String> props = props();
    props.put("primary.key.mode", "RECORD_VALUE");

    assertThat(errors(props)).containsOnlyKeys("primary.key.fields");
    assertThat(errors(props).get("primary.key.fields")).containsExactly("primary.key.fields must name the key columns "
        + "of the record value when primary.key.mode=record_value, e.g. id or tenant_id,id");
    props.put("write.mode", "history");
    assertThat(errors(props)).as("history tables are keyed too").containsOnlyKeys("primary.key.fields");
    props.put("write.mode", "append");
    assertThat(errors(props)).isEmpty();
  }

  @Test
  void tableRootMustBeAnAbsoluteWritableOrCreatableDirectory() throws IOException {
    Path file = Files.createFile(dir.resolve("file"));
    Map<String, String> props = props();

    props.put("table.root", file.toString());
    assertThat(errors(props).get("table.root")).containsExactly("table.root '" + file + "' exists and is not a directory");
    props.put("table.root", file.resolve("sub/lake").toString());
    assertThat(errors(props).get("table.root"))
        .containsExactly("table.root '" + file.resolve("sub/lake") + "' cannot be created: '" + file + "' is not a directory");
    props.put("table.root", "relative/lake");
    assertThat(errors(props).get("table.root")).singleElement().asString().contains("is a relative path");
    props.put("table.root", "file:" + dir.resolve("a/b"));
    assertThat(errors(props)).isEmpty();
    props.put("table.root", "gs://lake/tables");
    assertThat(errors(props).get("table.root")).singleElement().asString()
        .startsWith("table root gs://lake/tables: scheme 'gs' is not supported: "
            + "MergeSink commits need an atomic put-if-absent");
    props.put("table.root", "abfs://lake@account.dfs.core.windows.net/tables");
    assertThat(errors(props).get("table.root")).singleElement().asString()
        .startsWith("table root abfs://lake@account.dfs.core.windows.net/tables: scheme 'abfs' is not supported: "
            + "abfs:// means plain HTTP; use abfss://");
    props.put("table.root", "");
    assertThat(errors(props).get("table.root")).singleElement().asString().contains("String must be non-empty");
  }

  /**
   * A directory no user may write, root included (CI runs as root, which file permissions do not
   * stop): Linux's {@code /proc/sys}, which procfs keeps read-only whatever the caller's privileges.
   */
  @Test
  void notWritableTableRootIsReported() {
    Path readOnly = Path.of("/proc/sys");
    assertThat(readOnly).as("a Linux /proc").isDirectory();
    Map<String, String> props = props();
    String user = System.getProperty("user.name");

    props.put("table.root", readOnly.toString());
    assertThat(errors(props).get("table.root"))
        .containsExactly("table.root '" + readOnly + "' is not writable by the Connect worker (user " + user + ")");
    props.put("table.root", readOnly.resolve("lake").toString());
    assertThat(errors(props).get("table.root")).containsExactly("table.root '" + readOnly.resolve("lake")
        + "' does not exist and cannot be created: '" + readOnly + "' is not writable by the Connect worker (user " + user + ")");
  }

  @Test
  void unknownPlaceholderAndEnumValuesAreReportedOnTheirOption() {
    Map<String, String> props = props();
    props.put("table.name.format", "${source.database}/${topic}");
    props.put("merge.strategy", "merge-on-read");
    Map<String, List<String>> errors = errors(props);

    assertThat(errors).containsOnlyKeys("table.name.format", "merge.strategy");
    assertThat(errors.get("table.name.format")).singleElement().asString().contains(
        "unknown placeholder ${source.database} at position 0 of '${source.database}/${topic}': expected one of "
            + "[${topic}, ${source.db}, ${source.schema}, ${source.table}]");
    assertThat(errors.get("merge.strategy")).singleElement().asString()
        .isEqualTo("Invalid value merge-on-read for configuration merge.strategy: expected one of deletion-vectors, "
            + "copy-on-write (case-insensitive)");
  }

  @Test
  void orderingIsForKeyedTablesSoftDeletesForUpsertTablesAndBothReportedOnTheirOption() {
    Map<String, String> props = props();
    props.put("upsert.order.by", "source.lsn");
    props.put("delete.mode", "soft");
    assertThat(errors(props)).isEmpty();
    assertThat(new MergeSinkConfig(props).ingestOptions().changeSemantics().orderBy().column()).isEqualTo("__source_lsn");

    props.put("write.mode", "append");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors).containsOnlyKeys("upsert.order.by", "delete.mode");
    assertThat(errors.get("upsert.order.by")).singleElement().asString().contains("write.mode=append keeps changes as rows");
    assertThat(errors.get("delete.mode")).singleElement().asString().contains("set it to hard");

    // history tables order their versions, and record deletes by closing them
    props.put("write.mode", "history");
    errors = errors(props);
    assertThat(errors).containsOnlyKeys("delete.mode");
    props.put("delete.mode", "hard");
    assertThat(errors(props)).isEmpty();
    assertThat(new MergeSinkConfig(props).ingestOptions().changeSemantics().ordered()).isTrue();
    props.put("delete.mode", "soft");

    props.put("write.mode", "upsert");
    props.put("upsert.order.by", "source.scn");
    props.put("delete.mode", "gone");
    errors = errors(props);
    assertThat(errors).containsOnlyKeys("upsert.order.by", "delete.mode");
    assertThat(errors.get("upsert.order.by")).singleElement().asString().contains("expected none, source.lsn, source.ts_ms or the "
        + "name of a column");
    assertThat(errors.get("delete.mode")).singleElement().asString().contains("expected one of hard, soft");
  }

  @Test
  void txnAppIdNeedsAConnectorNameOrAValue() {
    Map<String, String> props = props();
    props.remove("name");
    assertThat(errors(props).get("txn.app.id"))
        .containsExactly("txn.app.id must be set when the configuration has no connector 'name' to default to");
    props.put("txn.app.id", "app");
    assertThat(errors(props)).isEmpty();
  }
}
