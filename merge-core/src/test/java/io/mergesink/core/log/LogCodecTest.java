package io.mergesink.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class LogCodecTest {
  private static final DeletionVectorDescriptor DV =
      new DeletionVectorDescriptor("u", "NGgq84JOm4UJT[vQ-60:", 141, 132, 50);

  @Test
  void everyActionRoundTrips() {
    Map<String, String> nullPartition = new LinkedHashMap<>();
    nullPartition.put("day", null);
    nullPartition.put("region", "eu west");
    List<Action> actions = List.of(
        CommitInfo.of(1_700_000_000_000L, "MERGE", Map.of("strategy", "deletion-vectors"), false,
            Map.of("numTargetRowsUpdated", "3")),
        Protocol.withFeatures(Set.of("deletionVectors"), Set.of("deletionVectors", "domainMetadata")),
        Protocol.legacy(1, 2),
        new Metadata("5d3c6b8e-0000-4000-8000-000000000001", "orders", "CDC of orders", "parquet", Map.of(),
            "{\"type\":\"struct\",\"fields\":[]}", List.of("day"), Map.of("delta.enableDeletionVectors", "true"),
            1_700_000_000_000L),
        new Metadata("id-2", null, null, null, null, "{\"type\":\"struct\",\"fields\":[]}", null, null, null),
        new AddFile("day=2024-01-01/part-0.parquet", nullPartition, 1234, 1_700_000_000_001L, true,
            "{\"numRecords\":10,\"tightBounds\":false}", Map.of("mergesink.partition", "orders-0"), DV, 5L, 7L),
        new AddFile("part-1.parquet", Map.of(), 99, 1L, false, null, null,
            new DeletionVectorDescriptor("i", "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", null, 40, 6), null, null),
        new RemoveFile("part-0.parquet", 1_700_000_000_002L, true, true, Map.of(), 1234L, null, DV, "{\"numRecords\":10}"),
        new RemoveFile("part-2.parquet", null, false, false, null, null, null, null, null),
        new SetTransaction("mergesink:orders:0", 41, 1_700_000_000_003L),
        new SetTransaction("mergesink:orders:1", 0, null),
        new DomainMetadata("mergesink.keys", "{\"columns\":[\"id\"]}", false),
        new DomainMetadata("gone", "", true));

    byte[] bytes = LogCodec.serialize(actions);

    assertThat(LogCodec.parse(bytes, "v.json")).isEqualTo(actions);
    assertThat(new String(bytes, StandardCharsets.UTF_8).lines()).hasSize(actions.size());
  }

  @Test
  void writesDeltaFieldNamesAndOmitsNulls() {
    AddFile add = new AddFile("a%20b.parquet", Map.of(), 10, 20, true, null, null, DV, null, null);

    assertThat(LogCodec.toJson(add)).isEqualTo("{\"add\":{\"path\":\"a%20b.parquet\",\"partitionValues\":{},"
        + "\"size\":10,\"modificationTime\":20,\"dataChange\":true,\"deletionVector\":{\"storageType\":\"u\","
        + "\"pathOrInlineDv\":\"NGgq84JOm4UJT[vQ-60:\",\"offset\":141,\"sizeInBytes\":132,\"cardinality\":50}}}");
    assertThat(LogCodec.toJson(Protocol.legacy(1, 2)))
        .isEqualTo("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}");
    assertThat(LogCodec.toJson(new SetTransaction("app:t:0", 7, null)))
        .isEqualTo("{\"txn\":{\"appId\":\"app:t:0\",\"version\":7}}");
    assertThat(add.decodedPath()).isEqualTo("a b.parquet");
  }

  @Test
  void commitInfoNamesMergeSink() {
    CommitInfo info = CommitInfo.of(5L, "WRITE", Map.of(), true, Map.of());

    assertThat(info.values()).containsKeys("timestamp", "operation", "operationParameters", "engineInfo",
        "isBlindAppend", "operationMetrics");
    assertThat((String) info.values().get("engineInfo")).startsWith("MergeSink/");
    assertThat(info.timestamp()).isEqualTo(5L);
    assertThat(info.operation()).isEqualTo("WRITE");
  }

  @Test
  void parsesEverySparkCommitOfTheFixtures() throws IOException {
    for (String table : List.of("dv-table", "cow-table", "types-table")) {
      try (Stream<Path> files = Files.list(Fixtures.table(table).resolve("_delta_log"))) {
        for (Path file : files.filter(f -> LogPaths.commitVersion(f.getFileName().toString()).isPresent()).toList()) {
          List<Action> actions = LogCodec.parse(Files.readAllBytes(file), file.toString());
          assertThat(actions).as(file.toString()).isNotEmpty().first().isInstanceOf(CommitInfo.class);
          assertThat(LogCodec.parse(LogCodec.serialize(actions))).as("re-serialized " + file).isEqualTo(actions);
        }
      }
    }
  }

  @Test
  void sparkDvUpdateCommitHasAddsAndRemovesOfTheSamePaths() throws IOException {
    Path v4 = Fixtures.table("dv-table").resolve("_delta_log/00000000000000000004.json");

    List<Action> actions = LogCodec.parse(Files.readAllBytes(v4), v4.toString());

    List<AddFile> adds = actions.stream().filter(AddFile.class::isInstance).map(AddFile.class::cast).toList();
    List<RemoveFile> removes = actions.stream().filter(RemoveFile.class::isInstance).map(RemoveFile.class::cast).toList();
    assertThat(adds).hasSize(6);
    assertThat(removes).hasSize(4).allSatisfy(r -> assertThat(r.deletionVector().cardinality()).isEqualTo(25));
    assertThat(adds.get(0).numRecords()).isEqualTo(250);
    assertThat(adds.get(0).deletionVector()).isEqualTo(new DeletionVectorDescriptor("u", "NGgq84JOm4UJT[vQ-60:", 1, 132, 50));
    assertThat(actions).filteredOn(SetTransaction.class::isInstance)
        .containsExactly(new SetTransaction("fixture-app:orders:0", 44, 1796000442998L));
  }

  @Test
  void unknownActionsAndBlankLinesAreSkipped() {
    String commit = "\n"
        + "{\"someFutureAction\":{\"version\":3}}\n"
        + "{\"txn\":{\"appId\":\"a\",\"version\":1}}\n";

    assertThat(LogCodec.parse(commit.getBytes(StandardCharsets.UTF_8)))
        .containsExactly(new SetTransaction("a", 1, null));
  }

  @Test
  void cdcActionsRoundTrip() {
    List<Action> actions = List.of(new AddCDCFile("_change_data/region=eu/cdc-1.zstd.parquet", Map.of("region", "eu"), 1213, null),
        new AddCDCFile("_change_data/cdc-2.zstd.parquet", Map.of(), 7, Map.of("k", "v")));

    byte[] json = LogCodec.serialize(actions);

    assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"cdc\":{\"path\":\"_change_data/region=eu/cdc-1.zstd.parquet\","
        + "\"partitionValues\":{\"region\":\"eu\"},\"size\":1213,\"dataChange\":false}");
    assertThat(LogCodec.parse(json)).isEqualTo(actions);
  }

  @Test
  void v2CheckpointActionsRoundTrip() {
    List<Action> actions = List.of(new CheckpointMetadata(3, null),
        new Sidecar("00000000000000000003.checkpoint.0000000001.0000000001.x.parquet", 11407, 1796128133752L, Map.of("k", "v")));

    assertThat(LogCodec.parse(LogCodec.serialize(actions))).isEqualTo(actions);
    assertThat(LogCodec.toJson(actions.get(0))).isEqualTo("{\"checkpointMetadata\":{\"version\":3}}");
  }

  @Test
  void malformedJsonNamesFileAndLine() {
    byte[] commit = "{\"txn\":{\"appId\":\"a\",\"version\":1}}\n{\"add\":{\"path\":".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> LogCodec.parse(commit, "/t/_delta_log/00000000000000000003.json"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("/t/_delta_log/00000000000000000003.json:2");
  }

  @Test
  void missingRequiredFieldIsNamed() {
    byte[] commit = "{\"add\":{\"size\":1,\"modificationTime\":2}}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> LogCodec.parse(commit, "c.json"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("add.path")
        .hasMessageContaining("c.json:1");
  }

  @Test
  void numRecordsIsUnknownWithoutStats() {
    AddFile add = new AddFile("p", null, 1, 1, true, null, null, null, null, null);

    assertThat(add.numRecords()).isEqualTo(AddFile.UNKNOWN_RECORDS);
    assertThat(add.withDeletionVector(DV, "{\"tightBounds\":false,\"numRecords\":300}").numRecords()).isEqualTo(300);
    assertThat(add.toRemove(9, true).logicalKey()).isEqualTo(add.logicalKey());
  }
}
