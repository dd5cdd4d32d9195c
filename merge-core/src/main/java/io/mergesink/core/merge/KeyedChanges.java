package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.types.StructType;
import java.util.List;

/**
 * A validated change set with the key of every change extracted: {@code upsertKeys[i]} is the key
 * of {@code upserts.get(i)}, {@code deleteKeys[i]} of {@code deletes.get(i)}.
 */
record KeyedChanges(List<Row> upserts, Row[] upsertKeys, Row[] deleteKeys, boolean hasUnchangedValues, ChangeSet source) {

  /** The key the row of upsert {@code index} had before a primary-key change, or null. */
  Row previousKey(int index) {
    return source.previousKey(index);
  }


  /**
   * Validates {@code changes} against the table schema and its key.
   *
   * @throws InvalidChangeSetException a row does not fit the schema, a key column is unchanged or
   *     null, or a key occurs in more than one change
   */
  static KeyedChanges of(String tableRoot, StructType schema, int[] keyOrdinals, ChangeSet changes) {
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

  static StructType keySchema(StructType schema, int[] keyOrdinals) {
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
