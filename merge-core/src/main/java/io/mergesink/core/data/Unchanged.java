package io.mergesink.core.data;

/**
 * A value in an upserted row meaning "keep this column's current value". Debezium sends a
 * placeholder instead of large PostgreSQL TOAST values that an update did not touch; the sink
 * turns it into this marker and the merge fills in the value of the live row it replaces (or
 * null when there is none).
 */
public enum Unchanged {
  VALUE
}
