package io.mergesink.core.changes;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.types.StructType;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * A validated change set with the key of every change extracted: {@code upsertKeys[i]} is the key
 * of {@code upserts.get(i)}, {@code deleteKeys[i]} of {@code deletes.get(i)}.
 */
public record KeyedChanges(List<Row> upserts, Row[] upsertKeys, Row[] deleteKeys, boolean hasUnchangedValues, ChangeSet source) {

  /** The key the row of upsert {@code index} had before a primary-key change, or null. */
  public Row previousKey(int index) {
    return source.previousKey(index);
  }

  /** The closed versions of a history table to write beside the changes; live to no key. */
  public List<Row> appends() {
    return source.appends();
  }

  /** Rows live to no key that the change set removes by position (a history table's closed versions). */
  public List<RowPosition> removals() {
    return source.removals();
  }

  /**
   * Validates {@code changes} against the table schema and its key.
   *
   * @param currentColumn the table's {@link CurrentRowColumn}, if it has one: then upserts must be
   *     current rows (true in it) and appends closed ones (false); without one, appends and removals
   *     by position are refused
   * @throws InvalidChangeSetException a row does not fit the schema, a key column is unchanged or
   *     null, a key occurs in more than one change, a row's current-row column does not fit what it is,
   *     or a position is removed twice or beside a truncate
   */
  public static KeyedChanges of(String tableRoot, StructType schema, int[] keyOrdinals, Optional<String> currentColumn, ChangeSet changes) {
    StructType keySchema = keySchema(schema, keyOrdinals);
    List<Row> upserts = changes.upserts();
    Row[] upsertKeys = new Row[upserts.size()];
    KeySet seen = KeySet.create(keySchema, upserts.size() + changes.deletes().size());
    boolean hasUnchanged = false;
    for (int i = 0; i < upserts.size(); i++) {
      Row row = upserts.get(i);
      String problem = RowValidator.problem(schema, row, true);
      if (problem != null) {
        throw new InvalidChangeSetException(tableRoot, "upsert " + row + ": " + problem);
      }
      upsertKeys[i] = row.project(keyOrdinals);
      checkKey(tableRoot, keySchema, upsertKeys[i], seen);
      hasUnchanged |= containsUnchanged(row);
    }
    checkVersions(tableRoot, schema, currentColumn, changes);
    Row[] deleteKeys = new Row[changes.deletes().size()];
    for (int i = 0; i < deleteKeys.length; i++) {
      deleteKeys[i] = changes.deletes().get(i);
      String problem = RowValidator.problem(keySchema, deleteKeys[i], false);
      if (problem != null) {
        throw new InvalidChangeSetException(tableRoot, "delete of key " + deleteKeys[i] + ": " + problem);
      }
      checkKey(tableRoot, keySchema, deleteKeys[i], seen);
    }
    return new KeyedChanges(upserts, upsertKeys, deleteKeys, hasUnchanged, changes);
  }

  /** Upserts are the current rows of their keys and appends closed versions, in a table with a current-row column. */
  private static void checkVersions(String tableRoot, StructType schema, Optional<String> currentColumn, ChangeSet changes) {
    if (currentColumn.isEmpty()) {
      if (!changes.appends().isEmpty()) {
        throw new InvalidChangeSetException(tableRoot, changes.appends().size() + " history appends for a table without a current-row "
            + "column (table property " + CurrentRowColumn.PROPERTY + "): its index would take them for live rows");
      }
      return;
    }
    int flag = schema.indexOf(currentColumn.get());
    if (flag < 0) {
      throw new InvalidChangeSetException(tableRoot, "the current-row column '" + currentColumn.get() + "' (table property "
          + CurrentRowColumn.PROPERTY + ") is not a column of " + schema.fieldNames());
    }
    for (Row row : changes.upserts()) {
      if (!Boolean.TRUE.equals(row.get(flag))) {
        throw new InvalidChangeSetException(tableRoot, "upsert " + row + ": an upsert of a history table is the key's current row, so "
            + "its column '" + currentColumn.get() + "' must be true, found " + row.get(flag));
      }
    }
    for (Row row : changes.appends()) {
      String problem = RowValidator.problem(schema, row, false);
      if (problem != null) {
        throw new InvalidChangeSetException(tableRoot, "append " + row + ": " + problem);
      }
      if (!Boolean.FALSE.equals(row.get(flag))) {
        throw new InvalidChangeSetException(tableRoot, "append " + row + ": a history append is a closed version, so its column '"
            + currentColumn.get() + "' must be false, found " + row.get(flag));
      }
    }
  }

  public static StructType keySchema(StructType schema, int[] keyOrdinals) {
    List<String> names = new java.util.ArrayList<>(keyOrdinals.length);
    for (int ordinal : keyOrdinals) {
      names.add(schema.field(ordinal).name());
    }
    return schema.select(names);
  }

  private static void checkKey(String tableRoot, StructType keySchema, Row key, KeySet seen) {
    for (int i = 0; i < key.size(); i++) {
      if (key.get(i) == null || key.get(i) == Unchanged.VALUE) {
        throw new InvalidChangeSetException(tableRoot, "key column '" + keySchema.field(i).name() + "' is missing in key " + key);
      }
    }
    if (!seen.add(key)) {
      throw new InvalidChangeSetException(tableRoot, "key " + key + " occurs in more than one change; a change set holds at most one change per key");
    }
  }

  private static boolean containsUnchanged(Row row) {
    for (int i = 0; i < row.size(); i++) {
      if (row.get(i) == Unchanged.VALUE) {
        return true;
      }
    }
    return false;
  }
}
