/**
 * How the logical rows of a table lie in its data files (docs/design.md, "Table layout"): partition
 * columns in the log and in Hive-style directories, the other columns under their physical names
 * (and Parquet field ids) in the Parquet files. Writers and readers share {@link
 * io.mergesink.core.layout.DataLayout}, so both sides agree on it.
 */
package io.mergesink.core.layout;
