package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.testing.KernelChangeFeed.Change;
import io.mergesink.core.testing.KernelChangeFeed.Version;
import io.mergesink.core.testing.KernelChangeFeed;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables whose protocol lists, or implies by a legacy writer version (3-6), features MergeSink does
 * not honour but the table does not use (no CHECK constraint, no identity column, no column
 * default) are written, and Delta Kernel reads the result: Spark makes a table whose only extra
 * feature is the change data feed at writer version 4, which implies CHECK constraints. Such a
 * table with the feed enabled gets its change data files. The refusals when a feature is used:
 * {@link RefusedFeaturesTest}; a constraint another writer adds while MergeSink commits stops the
 * commit.
 */
class LegacyProtocolsTest {
  private static final StructType SCHEMA = StructType.of(new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));

  @TempDir Path dir;

  @ParameterizedTest(name = "writer version {0}")
  @ValueSource(ints = {3, 4, 5, 6})
  void aLegacyWriterVersionWhoseImpliedFeaturesAreUnusedIsWritten(int version) throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":" + version + "}", Map.of());

    upsertsAndADelete(root, MergeStrategy.COPY_ON_WRITE);

    assertThat(KernelTables.readRows(root.toString())).containsExactlyInAnyOrder(Row.of(1L, "b"), Row.of(3L, "c"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"checkConstraints", "identityColumns", "allowColumnDefaults"})
  void aListedFeatureTheTableDoesNotUseIsNoReasonToRefuse(String feature) throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"" + feature + "\"]}", Map.of());

    upsertsAndADelete(root, MergeStrategy.COPY_ON_WRITE);

    assertThat(KernelTables.readRows(root.toString())).containsExactlyInAnyOrder(Row.of(1L, "b"), Row.of(3L, "c"));
  }

  @Test
  void aWriterVersion4TableWithTheChangeDataFeedGetsItsChanges() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":4}", Map.of("delta.enableChangeDataFeed", "true"));

    upsertsAndADelete(root, MergeStrategy.COPY_ON_WRITE);

    List<Version> feed = KernelChangeFeed.read(root.toString());
    Version last = feed.get(feed.size() - 1);
    assertThat(last.fromChangeDataFiles()).as("the update and delete come from change data files").isTrue();
    assertThat(last.changes()).containsExactlyInAnyOrder(
        new Change(Row.of(1L, "a"), KernelChangeFeed.UPDATE_PREIMAGE),
        new Change(Row.of(1L, "b"), KernelChangeFeed.UPDATE_POSTIMAGE),
        new Change(Row.of(2L, "a"), KernelChangeFeed.DELETE),
        new Change(Row.of(3L, "c"), KernelChangeFeed.INSERT));
    assertThat(KernelChangeFeed.rebuild(feed)).containsExactlyInAnyOrderElementsOf(KernelTables.readRows(root.toString()));
  }

  @Test
  void aConstraintAnotherWriterAddsWhileMergeSinkCommitsStopsTheCommit() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"checkConstraints\"]}", Map.of());
    TableWriter writer = DeltaTable.forPath(new LocalStorage(), root.toString())
        .newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE), List.of("id"));
    // what Spark's ALTER TABLE ... ADD CONSTRAINT commits, after the writer read the table
    Files.writeString(root.resolve("_delta_log/00000000000000000001.json"), metadata(Map.of("delta.constraints.positive", "id > 0")),
        StandardCharsets.UTF_8);

    assertThatThrownBy(() -> writer.commit(ChangeSet.builder().upsert(Row.of(-1L, "a")).build()))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessage("table " + root + " uses writer features [checkConstraints], which MergeSink does not support; it was left untouched");
    assertThat(root.resolve("_delta_log").toFile().list()).containsExactlyInAnyOrder("00000000000000000000.json",
        "00000000000000000001.json");
  }

  /** Inserts 1 and 2 ('a'), then in one commit updates 1 to 'b', deletes 2, inserts 3 'c'. */
  private static void upsertsAndADelete(Path root, MergeStrategy strategy) throws Exception {
    TableWriter writer = DeltaTable.forPath(new LocalStorage(), root.toString()).newWriter(WriterOptions.defaults(strategy), List.of("id"));
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "a")).upsert(Row.of(2L, "a")).build());
    writer.commit(ChangeSet.builder().upsert(Row.of(1L, "b")).delete(Row.of(2L)).upsert(Row.of(3L, "c")).build());
  }

  /** An empty table of {@link #SCHEMA} with {@code protocol} (JSON) and {@code configuration}, as another writer left it. */
  private Path table(String protocol, Map<String, String> configuration) throws Exception {
    Path root = dir.resolve("t");
    Files.createDirectories(root.resolve("_delta_log"));
    Files.writeString(root.resolve("_delta_log/00000000000000000000.json"), "{\"protocol\":" + protocol + "}\n" + metadata(configuration),
        StandardCharsets.UTF_8);
    return root;
  }

  /** A {@code metaData} action of {@link #SCHEMA} with {@code configuration}, as a log line. */
  private static String metadata(Map<String, String> configuration) throws Exception {
    ObjectMapper json = new ObjectMapper();
    return "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":"
        + json.writeValueAsString(SchemaJson.toJson(SCHEMA)) + ",\"partitionColumns\":[],\"configuration\":"
        + json.writeValueAsString(configuration) + ",\"createdTime\":1}}\n";
  }
}
