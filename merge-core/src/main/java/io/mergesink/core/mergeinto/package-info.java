/**
 * The MERGE engine (docs/design.md, "MERGE engine"): source rows joined with a keyed table on its
 * primary key, an ordered list of {@code WHEN [NOT] MATCHED} clauses deciding an action per row,
 * and the result landed as one change set through the table's merge strategy (deletion vectors or
 * copy-on-write). Conditions and assignments are Java functions over {@link
 * io.mergesink.core.mergeinto.RowView}s; each declares the target columns it reads, so that a
 * merge whose clauses read none reads no target row at all.
 */
package io.mergesink.core.mergeinto;
