package io.mergesink.core.parquet;

/** Where a converter delivers a decoded value: a slot of a row, an element of a list, a map key. */
@FunctionalInterface
interface ValueSink {
  void set(Object value);
}
