package io.mergesink.core.parquet;

import io.mergesink.core.types.ColumnMapping;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.Locale;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * How the fields of a read schema find their Parquet fields (PROTOCOL.md, "Reader Requirements for
 * Column Mapping"): by name, exactly or else ignoring case as Delta does, or by Parquet field id,
 * the {@value ColumnMapping#ID_KEY} of the read field, for column mapping mode {@code id}; a
 * read field without a column id (a materialized row tracking column, which the table's
 * schema does not hold) is found by name in either mode, as Spark finds it.
 * Elements of lists and maps are positional either way.
 */
public enum ColumnMatch {
  BY_NAME,
  BY_FIELD_ID;

  /**
   * The field of {@code group} that {@code field} reads, or null when the file lacks it.
   *
   * @throws IllegalArgumentException when several fields match ignoring case
   */
  Type find(GroupType group, StructField field) {
    if (this == BY_FIELD_ID && !isHidden(field)) {
      int id = idOf(field);
      for (Type candidate : group.getFields()) {
        if (candidate.getId() != null && candidate.getId().intValue() == id) {
          return candidate;
        }
      }
      return null;
    }
    return findByName(group, field.name());
  }

  /** The position in {@code read} of the field that reads {@code fileField}, or -1. */
  int ordinalIn(StructType read, Type fileField) {
    for (int i = 0; i < read.size(); i++) {
      if (this == BY_FIELD_ID && !isHidden(read.field(i))
          ? fileField.getId() != null && fileField.getId().intValue() == idOf(read.field(i))
          : read.field(i).name().equals(fileField.getName())) {
        return i;
      }
    }
    if (this == BY_FIELD_ID) {
      return -1;
    }
    for (int i = 0; i < read.size(); i++) {
      if (read.field(i).name().equalsIgnoreCase(fileField.getName())) {
        return i;
      }
    }
    return -1;
  }

  /** The field of {@code group} named {@code name}, exactly or else ignoring case; null when none. */
  static Type findByName(GroupType group, String name) {
    if (group.containsField(name)) {
      return group.getType(name);
    }
    Type match = null;
    for (Type field : group.getFields()) {
      if (field.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        if (match != null) {
          throw new IllegalArgumentException("column '" + name + "' matches several Parquet fields ignoring case: '"
              + match.getName() + "' and '" + field.getName() + "'");
        }
        match = field;
      }
    }
    return match;
  }

  /**
   * A read field without a column id: not a column of the table's schema ({@code physicalSchema}
   * gives each of those an id in mode {@code id}), but a materialized row tracking column.
   */
  private static boolean isHidden(StructField field) {
    return ColumnMapping.id(field).isEmpty();
  }

  private static int idOf(StructField field) {
    return ColumnMapping.id(field).getAsInt();
  }
}
