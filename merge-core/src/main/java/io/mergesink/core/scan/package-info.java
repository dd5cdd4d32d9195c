/**
 * Reading tables: {@link io.mergesink.core.scan.LogicalFileReader} turns a data file into rows of
 * the table's logical columns (partition values, column mapping, widened types);
 * {@link io.mergesink.core.scan.TableScan} reads the live rows of a snapshot, deletion vectors applied.
 */
package io.mergesink.core.scan;
