/**
 * Tables as users see them: create, open, evolve, write, scan; the table properties MergeSink
 * records (primary key) and the Delta protocols it supports.
 */
package io.mergesink.core.table;
