package io.mergesink.core.changes;

import io.mergesink.core.data.Row;

/** A row of a table (all its columns) and the position it is stored at. */
public record StoredRow(RowPosition position, Row row) {}
