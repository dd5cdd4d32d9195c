package io.mergesink.ingest.format;

import io.mergesink.core.data.Row;
import java.io.Closeable;
import java.util.Iterator;

/**
 * Live rows of a table, read lazily; the caller closes it. {@link #next} throws
 * {@link java.io.UncheckedIOException} when reading fails.
 */
public interface RowScan extends Iterator<Row>, Closeable {}
