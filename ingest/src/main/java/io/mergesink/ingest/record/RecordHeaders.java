package io.mergesink.ingest.record;

/**
 * The headers of a record as the decoder reads them: by name, the last value, already converted by
 * the front end (Connect's header converter gives {@code Struct}s, maps, strings and numbers).
 */
@FunctionalInterface
public interface RecordHeaders {
  /** A record without headers. */
  RecordHeaders NONE = name -> null;

  /** The value of the last header named {@code name}, or null when there is none (or its value is null). */
  Object lastValue(String name);
}
