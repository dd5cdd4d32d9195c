/**
 * Registration of Delta tables in the catalogs engines query by name ({@code catalog.type}): after
 * the commits that create a table or change its schema or partitioning, the table's entry is made
 * to match it. The table is the truth: a catalog that is down or refuses is logged and tried again
 * after the table's next commit, never failing the commit.
 */
package io.mergesink.ingest.catalog;
