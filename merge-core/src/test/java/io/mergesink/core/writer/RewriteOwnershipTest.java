package io.mergesink.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.testing.KernelTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ownership rule of rewrites (docs/design.md, "File ownership"): a copy-on-write rewrite tags
 * its output with the owners of the rows it carries as well as its writer's, so a writer of
 * another owner still indexes them and replaces them instead of adding a second live row.
 */
class RewriteOwnershipTest {
  private static final FileOwners BOTH = FileOwners.of(List.of("t:a", "t:b"));
  private static final FileOwners A = FileOwners.of(List.of("t:a"));
  private static final FileOwners B = FileOwners.of(List.of("t:b"));

  @TempDir Path dir;

  @Test
  void aRewriteKeepsTheOwnersOfTheRowsItCarries() throws Exception {
    DeltaTable table = create();
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(11);
    // even keys belong to owner a, odd keys to b; one writer owning both writes them all first
    commit(writer(table, BOTH), BOTH, model, random, 0, 1, 2, 3, 4, 5, 6, 7);

    commit(writer(table, A), A, model, random, 0, 2);
    assertThat(ownersOfLiveFiles(table)).as("a's rewrite carried b's rows: the output is b's as well").containsExactly(BOTH);

    commit(writer(table, B), B, model, random, 1, 3, 5);
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(new HashSet<>(model.values()));
    assertThat(KernelTables.readRows(table.root())).as("one live row per key").hasSize(model.size());
  }

  @Test
  void aRewriteOfAFileWithoutOwnersIsAnyones() throws Exception {
    DeltaTable table = create();
    Map<Long, Row> model = new HashMap<>();
    Random random = new Random(12);
    commit(table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE)), FileOwners.anyone(), model, random, 0, 1, 2, 3);

    commit(writer(table, A), A, model, random, 0);

    assertThat(ownersOfLiveFiles(table)).containsExactly(FileOwners.anyone());
    commit(writer(table, B), B, model, random, 1);
    assertThat(KernelTables.readRows(table.root())).hasSize(model.size());
    assertThat(new HashSet<>(KernelTables.readRows(table.root()))).isEqualTo(new HashSet<>(model.values()));
  }

  @Test
  void newRowsAloneAreOwnedByTheirChangeSetsOwners() throws Exception {
    DeltaTable table = create();
    Map<Long, Row> model = new HashMap<>();
    commit(writer(table, BOTH), A, model, new Random(13), 0, 2, 4);
    assertThat(ownersOfLiveFiles(table)).containsExactly(A);
  }

  private DeltaTable create() throws Exception {
    DeltaTable table = DeltaTable.forPath(new LocalStorage(), dir.resolve("t").toString());
    table.createIfAbsent(new TableSpec(MergeModelTest.SCHEMA, List.of("id"), MergeStrategy.COPY_ON_WRITE, Map.of()));
    return table;
  }

  private static TableWriter writer(DeltaTable table, FileOwners owners) throws Exception {
    return table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE).withScope(OwnerScope.of(owners)));
  }

  private static void commit(TableWriter writer, FileOwners owners, Map<Long, Row> model, Random random, long... ids) throws Exception {
    ChangeSet.Builder changes = ChangeSet.builder().owners(owners);
    for (long id : ids) {
      Row row = MergeModelTest.row(id, 1 + random.nextInt(100), random);
      changes.upsert(row);
      model.put(id, row);
    }
    writer.commit(changes.build());
  }

  private static Set<FileOwners> ownersOfLiveFiles(DeltaTable table) throws Exception {
    return table.snapshot().files().values().stream().map(FileOwners::of).collect(Collectors.toSet());
  }
}
