package io.mergesink.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.LogCodec;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.merge.MergeStrategy;
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
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Schema changes and the protocol (docs/design.md, "Schema evolution"): a {@code timestamp_ntz}
 * column added to a table whose protocol lacks the {@code timestampNtz} feature upgrades the
 * protocol in the same commit, keeping every feature the table had; table creation and schema
 * changes are commits with {@code commitInfo}, like every other commit.
 */
class SchemaChangeProtocolTest {
  private static final StructType SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true));
  private static final StructField SEEN = new StructField("seen", PrimitiveType.TIMESTAMP_NTZ, true);

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"COPY_ON_WRITE", "APPEND"})
  void aTimestampNtzColumnUpgradesALegacyProtocolInTheSameCommit(TableKind kind) throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    Snapshot created = table.createIfAbsent(kind.spec(SCHEMA, List.of("id"), Map.of()));
    assertThat(created.protocol()).isEqualTo(Protocol.legacy(1, 2));
    kind.newWriter(table).commit(ChangeSet.builder().upsert(Row.of(1L, "one")).build());

    Snapshot evolved = table.addColumns(List.of(SEEN));
    kind.newWriter(table).commit(ChangeSet.builder().upsert(Row.of(2L, "two", 1_767_225_600_000_000L)).build());

    // writer 2 implies appendOnly and invariants: writer 7 must list them
    assertThat(evolved.protocol()).isEqualTo(Protocol.withFeatures(Set.of(Protocol.TIMESTAMP_NTZ),
        Set.of(Protocol.TIMESTAMP_NTZ, Protocol.APPEND_ONLY, Protocol.INVARIANTS)));
    assertThat(actionsOf(table, evolved.version())).hasAtLeastOneElementOfType(Protocol.class);
    assertThat(KernelTables.schema(table.root()).fieldNames()).containsExactly("id", "name", "seen");
    assertThat(KernelTables.readRows(table.root())).containsExactlyInAnyOrder(Row.of(1L, "one", null), Row.of(2L, "two", 1_767_225_600_000_000L));
  }

  @Test
  void aTimestampNtzColumnJoinsTheFeaturesATableAlreadyLists() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));

    Snapshot evolved = table.addColumns(List.of(SEEN));

    assertThat(evolved.protocol()).isEqualTo(Protocol.withFeatures(Set.of(Protocol.DELETION_VECTORS, Protocol.TIMESTAMP_NTZ),
        Set.of(Protocol.DELETION_VECTORS, Protocol.TIMESTAMP_NTZ, Protocol.APPEND_ONLY, Protocol.INVARIANTS)));
    assertThat(KernelTables.schema(table.root()).fieldNames()).containsExactly("id", "name", "seen");
  }

  @Test
  void aColumnThatNeedsNoFeatureLeavesTheProtocolAlone() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.COPY_ON_WRITE, Map.of()));

    Snapshot evolved = table.addColumns(List.of(new StructField("score", PrimitiveType.DOUBLE, true)));

    assertThat(evolved.protocol()).isEqualTo(Protocol.legacy(1, 2));
    assertThat(actionsOf(table, evolved.version())).noneMatch(Protocol.class::isInstance);
  }

  @Test
  void creationAndSchemaChangesAreCommitsWithCommitInfo() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.COPY_ON_WRITE, Map.of()));
    Snapshot evolved = table.addColumns(List.of(SEEN));

    assertThat(commitInfo(table, 0).operation()).isEqualTo("CREATE TABLE");
    assertThat(commitInfo(table, evolved.version()).operation()).isEqualTo("ADD COLUMNS");
    assertThat(commitInfo(table, evolved.version()).values().get("readVersion")).isInstanceOfSatisfying(Number.class,
        readVersion -> assertThat(readVersion.longValue()).isZero());
  }

  private static List<Action> actionsOf(DeltaTable table, long version) throws Exception {
    return LogCodec.parse(Files.readAllBytes(Path.of(LogPaths.commitFile(table.root(), version))));
  }

  private static CommitInfo commitInfo(DeltaTable table, long version) throws Exception {
    return actionsOf(table, version).stream().filter(CommitInfo.class::isInstance).map(CommitInfo.class::cast).findFirst()
        .orElseThrow(() -> new AssertionError("no commitInfo in version " + version));
  }
}
