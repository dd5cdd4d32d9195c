package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.TableFeatures;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.testing.TableKind;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Delta table properties of new tables (docs/design.md, "Table properties"): one that enables a
 * feature MergeSink honours makes a protocol listing that feature and a table Delta Kernel reads;
 * one it cannot honour is refused at creation, naming it, and nothing is written.
 */
class TablePropertiesTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}={1} with {2}")
  @CsvSource(delimiter = '|', value = {
      "delta.appendOnly|true|APPEND|appendOnly",
      "delta.enableDeletionVectors|true|COPY_ON_WRITE|deletionVectors",
      "delta.enableDeletionVectors|true|APPEND|deletionVectors",
      "delta.feature.deletionVectors|supported|COPY_ON_WRITE|deletionVectors",
      "delta.feature.timestampNtz|supported|COPY_ON_WRITE|timestampNtz",
      "delta.feature.domainMetadata|supported|DELETION_VECTORS|domainMetadata",
      "delta.feature.appendOnly|supported|COPY_ON_WRITE|appendOnly",
      "delta.columnMapping.mode|name|COPY_ON_WRITE|columnMapping",
      "delta.columnMapping.mode|id|DELETION_VECTORS|columnMapping",
      "delta.enableTypeWidening|true|DELETION_VECTORS|typeWidening",
      "delta.enableRowTracking|true|APPEND|rowTracking",
      "delta.enableRowTracking|true|DELETION_VECTORS|domainMetadata",
      "delta.checkpointPolicy|v2|DELETION_VECTORS|v2Checkpoint",
      "delta.feature.v2Checkpoint|supported|COPY_ON_WRITE|v2Checkpoint",
      "delta.enableInCommitTimestamps|true|DELETION_VECTORS|inCommitTimestamp",
      "delta.feature.generatedColumns|supported|COPY_ON_WRITE|generatedColumns",
      "delta.feature.vacuumProtocolCheck|supported|DELETION_VECTORS|vacuumProtocolCheck",
      "delta.enableChangeDataFeed|true|DELETION_VECTORS|changeDataFeed",
      "delta.enableChangeDataFeed|true|COPY_ON_WRITE|changeDataFeed",
      "delta.feature.changeDataFeed|supported|COPY_ON_WRITE|changeDataFeed"})
  void aPropertyThatEnablesAFeatureMergeSinkHonoursIsInTheProtocol(String key, String value, TableKind kind, String feature)
      throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());

    Snapshot created = table.createIfAbsent(kind.spec(SCHEMA, List.of("id"), Map.of(key, value)));
    kind.newWriter(table).commit(ChangeSet.builder().upsert(Row.of(1L, "one")).build());

    assertThat(TableFeatures.supports(created.protocol(), feature)).as(created.protocol().toString()).isTrue();
    assertThat(KernelTables.readRows(table.root())).containsExactly(Row.of(1L, "one"));
    if (key.startsWith("delta.feature.")) {
      assertThat(created.metadata().configuration()).as("a protocol property, not a table property").doesNotContainKey(key);
    } else {
      assertThat(created.metadata().configuration()).containsEntry(key, value);
    }
  }

  @ParameterizedTest(name = "{0}={1} with {2}")
  @CsvSource(delimiter = '|', value = {
      "delta.enableIcebergCompatV2|true|COPY_ON_WRITE",
      "delta.feature.clustering|supported|DELETION_VECTORS",
      "delta.constraints.positive|id > 0|DELETION_VECTORS",
      "delta.columnMapping.maxColumnId|7|COPY_ON_WRITE",
      "delta.appendOnly|true|DELETION_VECTORS",
      "delta.enableDeletionVectors|false|DELETION_VECTORS",
      "delta.unknownSetting|x|COPY_ON_WRITE"})
  void aPropertyMergeSinkCannotHonourIsRefusedAtCreation(String key, String value, TableKind kind) {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());

    assertThatThrownBy(() -> table.createIfAbsent(kind.spec(SCHEMA, List.of("id"), Map.of(key, value))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(key + "=" + value);
    assertThat(Files.exists(dir.resolve("t").resolve("_delta_log"))).as("nothing written").isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {"delta.logRetentionDuration|interval 7 days", "delta.checkpointInterval|5",
      "delta.enableChangeDataFeed|false", "delta.columnMapping.mode|none", "comment|orders"})
  void aPropertyThatChangesNothingMergeSinkMustDoIsCopiedAndNeedsNoFeature(String key, String value) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());

    Snapshot created = table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.COPY_ON_WRITE, Map.of(key, value)));

    assertThat(created.protocol()).isEqualTo(Protocol.legacy(1, 2));
    assertThat(created.metadata().configuration()).containsEntry(key, value);
    assertThat(KernelTables.readRows(table.root())).isEmpty();
  }
}
