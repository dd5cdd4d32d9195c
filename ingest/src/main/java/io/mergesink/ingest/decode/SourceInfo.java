package io.mergesink.ingest.decode;

/**
 * Where a change came from in the source database, from Debezium's {@code source} block (or the
 * {@code __db}/{@code __schema}/{@code __table}/{@code __lsn}/{@code __source_ts_ms} fields that
 * ExtractNewRecordState adds). Each part is null when the record does not carry it (MySQL has no
 * schema and no LSN; a record that is not from Debezium has none of them).
 *
 * @param lsn PostgreSQL's {@code source.lsn}: the change's position in the write-ahead log
 * @param tsMs {@code source.ts_ms}: when the change was made in the database
 */
public record SourceInfo(String db, String schema, String table, Long lsn, Long tsMs) {
  /** No source coordinates. */
  public static final SourceInfo NONE = new SourceInfo(null, null, null, null, null);

  /** Coordinates without a source position. */
  public SourceInfo(String db, String schema, String table) {
    this(db, schema, table, null, null);
  }
}
