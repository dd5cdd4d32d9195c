package io.mergesink.ingest.format.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.format.TableScopeTopics;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.record.KafkaPartition;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's key-index scope (docs/design.md, "File ownership", "Topics that grow"): the files of its
 * partitions, and of every partition of a topic the table lists as grown; every file with
 * {@code lookup.scope=table}; and the owners of the rows a task writes: its partitions of the topics
 * whose changes a table takes, not all of its partitions.
 */
class PartitionOwnersTest {
  private static final StructType SCHEMA = StructType.of(new StructField("id", PrimitiveType.LONG, false));

  @TempDir Path dir;

  @Test
  void aGrownTopicWidensTheScopeToAllItsPartitionsOnly() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    Snapshot before = table.createIfAbsent(new TableSpec(SCHEMA, List.of("id"), MergeStrategy.DELETION_VECTORS, Map.of()));
    FileOwners owners = PartitionOwners.of(List.of(new KafkaPartition("orders", 3)));
    OwnerScope scope = PartitionOwners.scope(owners, LookupScope.PARTITION);

    Predicate<AddFile> narrow = scope.files(before);
    assertThat(narrow.test(file("orders:3"))).isTrue();
    assertThat(narrow.test(file("orders:0,orders:1"))).isFalse();
    assertThat(narrow.test(file(null))).as("a file of another tool may hold any key").isTrue();

    Snapshot grown = table.changeConfiguration(configuration -> TableScopeTopics.with(configuration, "orders"));
    Predicate<AddFile> wide = scope.files(grown);
    assertThat(wide.test(file("orders:0,orders:1"))).isTrue();
    assertThat(wide.test(file("payments:0"))).as("other topics keep their scope").isFalse();
    assertThat(TableScopeTopics.of(grown.metadata().configuration())).containsExactly("orders");
    assertThat(table.changeConfiguration(configuration -> TableScopeTopics.with(configuration, "orders")).version())
        .as("adding a topic twice commits nothing").isEqualTo(grown.version());
  }

  @Test
  void tableLookupCoversEveryFile() {
    OwnerScope scope = PartitionOwners.scope(PartitionOwners.of(List.of(new KafkaPartition("orders", 3))), LookupScope.TABLE);
    assertThat(scope.files(null).test(file("payments:0"))).isTrue();
  }

  @Test
  void theRowsOfAChangeSetAreOwnedByTheTasksPartitionsOfTheTopicsItsPositionsAreOf() {
    List<KafkaPartition> task = List.of(new KafkaPartition("pg.public.orders", 0), new KafkaPartition("pg.public.orders", 1),
        new KafkaPartition("pg.public.items", 0), new KafkaPartition("pg.public.users", 0));

    assertThat(PartitionOwners.ofChanges(task, List.of("sink:pg.public.orders:1")))
        .as("every partition of the topic the task holds: the same owners whichever of them had changes")
        .isEqualTo(FileOwners.of(List.of("pg.public.orders:0", "pg.public.orders:1")));
    assertThat(PartitionOwners.ofChanges(task, List.of("sink:pg.public.orders:0", "sink:pg.public.items:0")))
        .isEqualTo(FileOwners.of(List.of("pg.public.orders:0", "pg.public.orders:1", "pg.public.items:0")));
    assertThat(PartitionOwners.ofChanges(task, List.of())).as("no position: all the task's partitions")
        .isEqualTo(PartitionOwners.of(task));
  }

  private static AddFile file(String owners) {
    return new AddFile("part-0.parquet", Map.of(), 1, 0, true, null, owners == null ? null : Map.of(FileOwners.TAG, owners), null, null,
        null);
  }
}
