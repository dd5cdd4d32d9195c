package io.mergesink.ingest.decode;

/**
 * Where a change came from in the source database, from Debezium's {@code source} block (or the
 * {@code __db}/{@code __schema}/{@code __table} fields that ExtractNewRecordState adds). Each part
 * is null when the record does not carry it (MySQL has no schema; a record that is not from
 * Debezium has none of them).
 */
public record SourceInfo(String db, String schema, String table) {
  /** No source coordinates. */
  public static final SourceInfo NONE = new SourceInfo(null, null, null);
}
