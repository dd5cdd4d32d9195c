package io.mergesink.connect.reliability;

import io.mergesink.ingest.testing.TableAudit;
import java.nio.file.Path;

/**
 * The end-of-scenario audit of a cell of the reliability matrix: {@link TableAudit#check} of the
 * table, read by the cell's format's reader ({@link Cell#tables()}: Delta Kernel, Iceberg's generic
 * reader with positions from the snapshot summaries), against what the scenario's {@link RecordLog}
 * says it must hold in the cell, and in
 * Change Data Feed cells {@link TableAudit#changeFeed} too.
 */
final class MatrixAudit {
  private MatrixAudit() {}

  /** The whole audit of {@code table} against what {@code log} says it must hold in {@code cell}, at the log's end offsets. */
  static TableAudit.Result check(String scenario, Cell cell, Path table, RecordLog log, String appIdPrefix) {
    return check(scenario, cell, table.toString(), log, appIdPrefix);
  }

  /** {@link #check(String, Cell, Path, RecordLog, String)} of a table anywhere: a local path or an {@code s3://} URI. */
  static TableAudit.Result check(String scenario, Cell cell, String table, RecordLog log, String appIdPrefix) {
    TableAudit.Result result = TableAudit.check(cell.tables(), scenario + " [" + cell + "]", table, log.expected(cell),
        log.endOffsets(), appIdPrefix);
    if (cell.mode() == Cell.Mode.CHANGE_FEED) {
      TableAudit.changeFeed(scenario + " [" + cell + "]", table);
    }
    return result;
  }
}
