/**
 * Tables as users see them: create, open, evolve, write, scan; the table properties MergeSink
 * records (primary key).
 */
package io.mergesink.core.table;
