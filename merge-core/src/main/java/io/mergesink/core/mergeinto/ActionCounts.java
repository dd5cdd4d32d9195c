package io.mergesink.core.mergeinto;

/**
 * What a merge decided, in source rows.
 *
 * @param inserted rows a NOT MATCHED clause inserted
 * @param updated matched target rows an UPDATE clause changed
 * @param deleted matched target rows a DELETE clause removed, and keys deleted blind (the clauses
 *     delete a matched row and leave an unmatched one alone, so the key was not looked up: it may
 *     have had no row)
 * @param upserted rows written blind: the row is the same whether the key matched or not (an
 *     unconditional {@code UPDATE SET *} with {@code INSERT *}), so the key was not looked up
 * @param untouched rows no clause applied to
 * @param targetRowsRead target rows read because a clause needed their values
 */
public record ActionCounts(long inserted, long updated, long deleted, long upserted, long untouched, long targetRowsRead) {}
