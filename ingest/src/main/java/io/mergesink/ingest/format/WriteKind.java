package io.mergesink.ingest.format;

/**
 * Which writer a table needs, from its table kind: one that replaces rows by key (keyed and history
 * tables: a key index locates each key's live row), or one that only adds rows (append tables).
 */
public enum WriteKind {
  BY_KEY,
  APPEND
}
