package io.mergesink.core.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.DomainMetadata;
import io.mergesink.core.log.Fixtures;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotLoaderTest {
  private static final String ORDERS_0 = "fixture-app:orders:0";
  private static final String ORDERS_1 = "fixture-app:orders:1";

  private final LocalStorage storage = new LocalStorage();
  private final SnapshotLoader loader = new SnapshotLoader(storage);

  @TempDir
  Path tmp;

  @Test
  void dvTableFromCheckpointAndTail() throws IOException {
    Snapshot snapshot = loader.latest(Fixtures.table("dv-table").toString());

    assertDvTableLatest(snapshot);
    assertThat(snapshot.lastCheckpointVersion()).hasValue(5);
  }

  @Test
  void dvTableWithoutLastCheckpointReplaysSameState() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    Files.delete(table.resolve("_delta_log/_last_checkpoint"));

    Snapshot snapshot = loader.latest(table.toString());

    assertDvTableLatest(snapshot);
    assertThat(snapshot.lastCheckpointVersion()).as("the listing from 0 still finds the checkpoint").hasValue(5);
  }

  @Test
  void dvTableFromJsonOnlyEqualsStateFromCheckpoint() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    Files.delete(table.resolve("_delta_log/_last_checkpoint"));
    Files.delete(table.resolve("_delta_log/00000000000000000005.checkpoint.parquet"));

    Snapshot fromJson = loader.latest(table.toString());
    Snapshot fromCheckpoint = loader.latest(Fixtures.table("dv-table").toString());

    assertDvTableLatest(fromJson);
    assertThat(fromJson.lastCheckpointVersion()).isEmpty();
    assertThat(withoutDataChange(fromJson.files()))
        .as("Spark writes dataChange=false into checkpoints; everything else matches")
        .isEqualTo(withoutDataChange(fromCheckpoint.files()));
    assertThat(fromJson.transactions()).isEqualTo(fromCheckpoint.transactions());
  }

  @Test
  void staleOrTornLastCheckpointIsTolerated() throws IOException {
    Path table = Fixtures.copy("dv-table", tmp);
    Path hint = table.resolve("_delta_log/_last_checkpoint");

    Files.writeString(hint, "{\"version\":2,\"size\":9}");
    assertDvTableLatest(loader.latest(table.toString()));

    Files.writeString(hint, "{\"version\":5,\"si");
    assertDvTableLatest(loader.latest(table.toString()));

    Files.writeString(hint, "{\"version\":99,\"size\":9}");
    assertDvTableLatest(loader.latest(table.toString()));
  }

  @Test
  void dvTableAtVersions() throws IOException {
    String root = Fixtures.table("dv-table").toString();

    Snapshot v0 = loader.atVersion(root, 0);
    assertThat(v0.version()).isZero();
    assertThat(v0.files()).isEmpty();
    assertThat(v0.txnVersions()).isEmpty();

    Snapshot v3 = loader.atVersion(root, 3);
    assertThat(v3.files()).hasSize(4);
    assertThat(v3.files().values()).allSatisfy(f -> assertThat(f.deletionVector()).isNotNull());
    assertThat(v3.files().values().stream().mapToLong(AddFile::deletedRecords).sum()).isEqualTo(100);
    assertThat(v3.txnVersions()).isEqualTo(Map.of(ORDERS_0, 43L));
    assertThat(v3.tombstones()).hasSize(4);

    Snapshot v5 = loader.atVersion(root, 5);
    assertThat(v5.lastCheckpointVersion()).hasValue(5);
    assertThat(v5.files()).hasSize(6);
    assertThat(v5.txnVersions()).isEqualTo(Map.of(ORDERS_0, 44L, ORDERS_1, 7L));

    assertThatThrownBy(() -> loader.atVersion(root, 7))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("no version 7")
        .hasMessageContaining("latest is 6");
  }

  @Test
  void updateReplaysOnlyNewerCommits() throws IOException {
    String root = Fixtures.table("dv-table").toString();
    Snapshot v2 = loader.atVersion(root, 2);

    Snapshot updated = loader.update(v2);

    assertDvTableLatest(updated);
    assertThat(updated.lastCheckpointVersion()).as("built from v2, not from the checkpoint").isEmpty();
    assertThat(loader.update(updated)).isSameAs(updated);
  }

  @Test
  void withCommitAppliesActionsWithoutReadingTheLog() throws IOException {
    String root = Fixtures.table("dv-table").toString();
    Snapshot v5 = loader.atVersion(root, 5);

    Snapshot v6 = v5.withCommit(6, loader.readCommit(root, 6));

    assertThat(v6.files()).isEqualTo(loader.latest(root).files());
    assertThat(v6.txnVersions()).isEqualTo(loader.latest(root).txnVersions());
    assertThatThrownBy(() -> v5.withCommit(7, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must have version 6");
  }

  @Test
  void domainMetadataLatestWinsAndRemovedDrops() throws IOException {
    String root = Fixtures.table("cow-table").toString();
    Snapshot base = loader.latest(root);

    Snapshot added = base.withCommit(4, List.of(
        new DomainMetadata("a", "{\"x\":1}", false), new DomainMetadata("b", "{}", false)));
    Snapshot changed = added.withCommit(5, List.of(
        new DomainMetadata("a", "{\"x\":2}", false), new DomainMetadata("b", "{}", true)));

    assertThat(changed.domainMetadata()).containsOnlyKeys("a");
    assertThat(changed.domainMetadata().get("a").configuration()).isEqualTo("{\"x\":2}");
    assertThat(base.domainMetadata()).as("snapshots are immutable").isEmpty();
  }

  @Test
  void dvUpdateInOneCommitKeepsTheNewDvWhateverTheOrder() throws IOException {
    String root = Fixtures.table("types-table").toString();
    Snapshot v1 = loader.atVersion(root, 1);

    Snapshot v2 = loader.atVersion(root, 2);

    AddFile updated = v2.files().get("part-00001-f1a7b86c-6f57-4ebf-aa0c-fd5f2d69dcd8-c000.snappy.parquet");
    assertThat(v1.files()).hasSize(2);
    assertThat(v2.files()).hasSize(2);
    assertThat(updated.deletionVector().cardinality()).isEqualTo(1);
    assertThat(v2.tombstones()).singleElement().satisfies(r -> assertThat(r.deletionVector()).isNull());
  }

  @Test
  void cowTable() throws IOException {
    Snapshot snapshot = loader.latest(Fixtures.table("cow-table").toString());

    assertThat(snapshot.version()).isEqualTo(3);
    assertThat(snapshot.files()).hasSize(2);
    assertThat(snapshot.files().values()).allSatisfy(f -> assertThat(f.deletionVector()).isNull());
    assertThat(snapshot.files().values().stream().mapToLong(AddFile::numRecords).sum()).isEqualTo(200);
    assertThat(snapshot.protocol()).isEqualTo(Protocol.legacy(1, 2));
    assertThat(snapshot.schema().fields()).containsExactly(
        new StructField("id", PrimitiveType.LONG, false),
        new StructField("name", PrimitiveType.STRING, true),
        new StructField("amount", new DecimalType(12, 2), true));
    assertThat(snapshot.lastCheckpointVersion()).isEmpty();
  }

  @Test
  void typesTable() throws IOException {
    Snapshot snapshot = loader.latest(Fixtures.table("types-table").toString());

    assertThat(snapshot.version()).isEqualTo(2);
    assertThat(snapshot.protocol().supportsReaderFeature(Protocol.TIMESTAMP_NTZ)).isTrue();
    assertThat(snapshot.protocol().supportsWriterFeature(Protocol.TIMESTAMP_NTZ)).isTrue();
    assertThat(snapshot.schema().fieldNames()).containsExactly(
        "id", "b", "s", "l", "f", "d", "dec", "str", "bin", "flag", "day", "ts", "ts_ntz", "arr", "st", "m");
    assertThat(snapshot.schema().field("ts_ntz").orElseThrow().type()).isEqualTo(PrimitiveType.TIMESTAMP_NTZ);
    long live = snapshot.files().values().stream().mapToLong(f -> f.numRecords() - f.deletedRecords()).sum();
    assertThat(live).isEqualTo(2);
  }

  @Test
  void ignoresCrcAndTempFilesInTheLog() throws IOException {
    Path table = Fixtures.copy("cow-table", tmp);
    Path log = table.resolve("_delta_log");
    Files.writeString(log.resolve(".00000000000000000004.json.3f2a.tmp"), "garbage");
    Files.writeString(log.resolve("00000000000000000004.json.tmp"), "garbage");
    Files.writeString(log.resolve("00000000000000000004.crc"), "garbage");

    assertThat(loader.latest(table.toString()).version()).isEqualTo(3);
  }

  @Test
  void missingLogIsTableNotFound() throws IOException {
    assertThatThrownBy(() -> loader.latest(tmp.resolve("nothing").toString()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining(tmp.resolve("nothing").toString());
    Files.createDirectories(tmp.resolve("empty/_delta_log"));
    assertThatThrownBy(() -> loader.latest(tmp.resolve("empty").toString()))
        .isInstanceOf(TableNotFoundException.class);
  }

  @Test
  void gapInCommitsNamesTheMissingFile() throws IOException {
    Path table = Fixtures.copy("cow-table", tmp);
    Files.delete(table.resolve("_delta_log/00000000000000000002.json"));

    assertThatThrownBy(() -> loader.latest(table.toString()))
        .isInstanceOf(InvalidTableException.class)
        .hasMessageContaining("00000000000000000002.json is missing");
  }

  @Test
  void updateAfterOurOwnCommitSeesIt() throws IOException {
    Path table = Fixtures.copy("cow-table", tmp);
    String root = table.toString();
    Snapshot base = loader.latest(root);
    AddFile any = base.files().values().iterator().next();
    byte[] commit = io.mergesink.core.log.LogCodec.serialize(List.of(
        any.toRemove(1L, true), new SetTransaction("app:t:0", 9, 1L)));
    assertThat(storage.writeIfAbsent(LogPaths.commitFile(root, 4), commit)).isTrue();

    Snapshot updated = loader.update(base);

    assertThat(updated.version()).isEqualTo(4);
    assertThat(updated.files()).hasSize(1).doesNotContainKey(any.path());
    assertThat(updated.txnVersion("app:t:0")).hasValue(9);
    assertThat(new String(commit, StandardCharsets.UTF_8)).contains("\"remove\"");
  }

  private static Map<String, AddFile> withoutDataChange(Map<String, AddFile> files) {
    Map<String, AddFile> result = new java.util.HashMap<>();
    files.forEach((path, f) -> result.put(path, new AddFile(f.path(), f.partitionValues(), f.size(),
        f.modificationTime(), false, f.stats(), f.tags(), f.deletionVector(), f.baseRowId(),
        f.defaultRowCommitVersion())));
    return result;
  }

  private static void assertDvTableLatest(Snapshot snapshot) {
    assertThat(snapshot.version()).isEqualTo(6);
    assertThat(snapshot.files()).hasSize(7);
    assertThat(snapshot.files().values().stream().filter(f -> f.deletionVector() != null)).hasSize(5);
    assertThat(snapshot.files().values().stream().mapToLong(AddFile::deletedRecords).sum()).isEqualTo(218);
    long live = snapshot.files().values().stream().mapToLong(f -> f.numRecords() - f.deletedRecords()).sum();
    assertThat(live).isEqualTo(883);
    assertThat(snapshot.txnVersions()).isEqualTo(Map.of(ORDERS_0, 45L, ORDERS_1, 7L));
    assertThat(snapshot.txnVersion(ORDERS_0)).hasValue(45);
    assertThat(snapshot.txnVersion("other")).isEmpty();
    assertThat(snapshot.protocol().minReaderVersion()).isEqualTo(3);
    assertThat(snapshot.protocol().minWriterVersion()).isEqualTo(7);
    assertThat(snapshot.protocol().supportsReaderFeature(Protocol.DELETION_VECTORS)).isTrue();
    assertThat(snapshot.metadata().configuration()).containsEntry("delta.enableDeletionVectors", "true");
    assertThat(snapshot.schema().fieldNames()).containsExactly("id", "name", "amount", "active", "updated_at");
    assertThat(snapshot.domainMetadata()).isEmpty();
  }
}
