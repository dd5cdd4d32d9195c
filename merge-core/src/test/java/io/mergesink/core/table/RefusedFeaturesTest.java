package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.WriterOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every table feature MergeSink does not honour is refused when a writer opens the table, in one
 * line naming the table and the feature, and nothing is written: for each of them a table whose
 * protocol lists it (as Spark or Databricks make them) and, for the features a table may list
 * without using (CHECK constraints, identity columns, column defaults), one that uses it. Tables
 * that list or imply those without using them are written: {@link LegacyProtocolsTest}.
 */
class RefusedFeaturesTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"icebergCompatV1", "icebergCompatV2", "someFutureFeature"})
  void aWriterFeatureMergeSinkDoesNotHonourIsRefusedByName(String feature) throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"" + feature + "\"]}", Map.of());

    assertRefused(root, "table " + root + " uses writer features [" + feature + "], which MergeSink does not support; it was left untouched");
  }

  @Test
  void aCheckConstraintIsRefused() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"checkConstraints\"]}", Map.of(),
        Map.of("delta.constraints.positive", "id > 0"));

    assertRefused(root, "table " + root + " uses writer features [checkConstraints], which MergeSink does not support; it was left untouched");
  }

  @Test
  void anIdentityColumnIsRefused() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"identityColumns\"]}",
        Map.of("delta.identity.start", 1, "delta.identity.step", 1, "delta.identity.allowExplicitInsert", false), Map.of());

    assertRefused(root, "table " + root + " uses writer features [identityColumns], which MergeSink does not support; it was left untouched");
  }

  @Test
  void aColumnDefaultIsRefused() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":[\"allowColumnDefaults\"]}",
        Map.of("CURRENT_DEFAULT", "0"), Map.of());

    assertRefused(root, "table " + root + " uses writer features [allowColumnDefaults], which MergeSink does not support; it was left untouched");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"variantType", "variantType-preview", "variantShredding-preview", "catalogManaged"})
  void aReaderWriterFeatureMergeSinkDoesNotHonourIsRefusedByName(String feature) throws Exception {
    Path root = table("{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"" + feature + "\"],\"writerFeatures\":[\""
        + feature + "\"]}", Map.of());

    assertRefused(root, "table " + root + " uses reader features [" + feature + "], which MergeSink does not support; it was left untouched");
  }

  @ParameterizedTest(name = "writer version {0}")
  @CsvSource({"3", "4", "5", "6"})
  void aLegacyWriterVersionWithACheckConstraintIsRefused(int version) throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":" + version + "}", Map.of(), Map.of("delta.constraints.positive", "id > 0"));

    assertRefused(root, "table " + root + " uses writer version " + version + ", which implies writer features [checkConstraints],"
        + " which MergeSink does not support; it was left untouched");
  }

  @Test
  void writerVersion6WithAnIdentityColumnIsRefused() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":6}", Map.of("delta.identity.start", 1, "delta.identity.step", 1), Map.of());

    assertRefused(root, "table " + root + " uses writer version 6, which implies writer features [identityColumns],"
        + " which MergeSink does not support; it was left untouched");
  }

  @Test
  void aWriterVersionAbove7IsRefused() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":8}", Map.of());

    assertRefused(root, "table " + root + " uses writer version 8 (supported: up to 7), which MergeSink does not support; it was left untouched");
  }

  @Test
  void aColumnWithAnInvariantIsRefused() throws Exception {
    Path root = table("{\"minReaderVersion\":1,\"minWriterVersion\":2}", Map.of("delta.invariants", "{\"expression\":{\"expression\":\"id > 0\"}}"));

    assertRefused(root, "table " + root + " uses column invariants (delta.invariants), which MergeSink does not support; it was left untouched");
  }

  private void assertRefused(Path root, String message) throws Exception {
    List<String> log = List.of(root.resolve("_delta_log").toFile().list());
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), root.toString());

    assertThatThrownBy(() -> table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE), List.of("id")))
        .isInstanceOf(UnsupportedTableException.class).hasMessage(message);
    assertThat(root.resolve("_delta_log").toFile().list()).containsExactlyInAnyOrderElementsOf(log);
  }

  /** A table of one {@code id} column with field metadata {@code idMetadata} and {@code protocol} (JSON). */
  private Path table(String protocol, Map<String, Object> idMetadata) throws Exception {
    return table(protocol, idMetadata, Map.of());
  }

  /** {@link #table(String, Map)} with {@code configuration}. */
  private Path table(String protocol, Map<String, Object> idMetadata, Map<String, String> configuration) throws Exception {
    Path root = dir.resolve("t");
    Files.createDirectories(root.resolve("_delta_log"));
    String schema = SchemaJson.toJson(StructType.of(new StructField("id", PrimitiveType.LONG, false, idMetadata)));
    String metadata = "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":"
        + new ObjectMapper().writeValueAsString(schema) + ",\"partitionColumns\":[],\"configuration\":"
        + new ObjectMapper().writeValueAsString(configuration) + ",\"createdTime\":1}}\n";
    Files.writeString(root.resolve("_delta_log/00000000000000000000.json"), "{\"protocol\":" + protocol + "}\n" + metadata,
        StandardCharsets.UTF_8);
    return root;
  }
}
