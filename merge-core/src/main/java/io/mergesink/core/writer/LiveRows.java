package io.mergesink.core.writer;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.ReadSet;
import io.mergesink.core.changes.StoredRow;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * A read-only view of a keyed table's live rows by key, as its writer's key index holds them at
 * one version of the table, for engines that decide per row before they land a change set (the
 * MERGE engine, docs/design.md "MERGE engine"; ordering, soft deletes and history tables). Each
 * format's writer gives its own ({@link DeltaLiveRows} for Delta); a view is valid until that
 * writer's next commit or refresh.
 *
 * <p>It records what it reads ({@link #reads()}): a change set decided from it names that as
 * {@link ChangeSet.Builder#decidedFrom}, and lands only while those rows are where they were.
 * Lookups ({@link #contain}) are recorded too: a key found absent was decided from as well.
 */
public interface LiveRows {
  /** Where the table is, for messages. */
  String tableRoot();

  /** The table schema of the version the view answers for. */
  StructType schema();

  /** The primary key columns with their types, in key order. */
  StructType keySchema();

  /** What was read through this view so far: the live rows of the keys read, and whether every live row was. */
  ReadSet reads();

  /** Per key (in {@link #keySchema()} order): whether the table has a live row of it. */
  boolean[] contain(Row[] keys) throws IOException;

  /**
   * Per key, the values of {@code columns} (in that order) of its live row, or null when it has
   * none. A key with several live rows (a table another tool wrote) gets one of them, the one
   * the writer's filling of unchanged columns takes too.
   *
   * @param columns table columns, at least one
   * @throws IllegalArgumentException when {@code columns} is empty or names a column the table lacks
   */
  Row[] read(Row[] keys, List<String> columns) throws IOException;

  /**
   * Every live row the index holds, as rows of the whole table schema: in a history table its
   * current rows; a whole-table read (a history table's truncate), of the writer's scope only.
   */
  List<Row> readAll() throws IOException;

  /**
   * Every row of the table whose key is one of {@code keys}, live to the index or not (in a
   * history table its current rows and its closed versions), with its position, in no particular
   * order; deleted rows are left out. Reads the files whose key statistics may hold one of the keys.
   */
  List<StoredRow> rowsOfKeys(Collection<Row> keys) throws IOException;
}
