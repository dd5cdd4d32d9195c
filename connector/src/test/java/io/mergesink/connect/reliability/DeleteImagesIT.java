package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.CustomerTable.DeleteImage;
import io.mergesink.connect.reliability.CustomerTable.NameColumn;
import io.mergesink.connect.reliability.Matrix.Case;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deletes of a source table with a {@code NOT NULL} column, as Debezium sends them with
 * {@code REPLICA IDENTITY FULL} (the whole row in {@code before}) and without a {@code before} row.
 * Append tables record every delete as a row: its {@code before} row, or its key columns when it
 * has none (docs/design.md, "Merge strategies"); upsert tables delete the key either way. Inserts,
 * updates, deletes with and without tombstones, and key changes, over several tasks.
 */
class DeleteImagesIT {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 500;
  private static final int BUFFER_RECORDS = 80;
  private static final int BATCH = 40;
  private static final int QUIESCE_POLLS = 2_000;

  @TempDir Path tables;

  static Stream<Arguments> shapes() {
    return Matrix.across(List.of(
        Case.in(Cell::isAppend, "NOT NULL name, deletes with the whole row", NameColumn.NOT_NULL, DeleteImage.FULL_ROW),
        Case.in(Cell::isAppend, "NOT NULL name, deletes without a before row", NameColumn.NOT_NULL, DeleteImage.NONE),
        Case.in(cell -> !cell.isAppend(), "NOT NULL name, deletes without a before row", NameColumn.NOT_NULL, DeleteImage.NONE)));
  }

  @ParameterizedTest(name = "[{0}] {1}", allowZeroInvocations = true)
  @MethodSource("shapes")
  void deletesLandAsTheTableKindPromises(Cell cell, String name, NameColumn nameColumn, DeleteImage deletes) {
    long seed = Workloads.seed("deletes: " + name + " [" + cell + "]");
    Random random = new Random(seed);
    RecordLog log = new RecordLog(Workloads.TOPIC, PARTITIONS, CustomerTable.of(nameColumn, deletes));
    TaskGroup group = new TaskGroup(cell.apply(Workloads.localConfig(tables, BUFFER_RECORDS)), log);
    Workloads.mixed(log, KEYS, random);
    group.start(2);
    group.quiesce(BATCH, QUIESCE_POLLS);
    Workloads.touchExisting(log, 300, random);
    group.quiesce(BATCH, QUIESCE_POLLS);
    group.stopAll();

    MatrixAudit.check("deletes: " + name + " seed " + seed, cell, Workloads.table(cell, tables), log, Workloads.CONNECTOR);
  }
}
