package io.mergesink.ingest.format;

/** The table formats a connector can write ({@code table.format}). */
public enum TableFormatName {
  /** Delta Lake tables, written by merge-core. */
  DELTA
}
