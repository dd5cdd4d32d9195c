package io.mergesink.core.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An ordered list of uniquely named fields: a table schema or a nested struct column. */
public final class StructType implements DataType {
  private final List<StructField> fields;
  private final Map<String, Integer> indexByName;

  public StructType(List<StructField> fields) {
    this.fields = List.copyOf(fields);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < this.fields.size(); i++) {
      if (index.put(this.fields.get(i).name(), i) != null) {
        throw new IllegalArgumentException("duplicate field name '" + this.fields.get(i).name() + "' in " + this.fields);
      }
    }
    this.indexByName = Map.copyOf(index);
  }

  public static StructType of(StructField... fields) {
    return new StructType(List.of(fields));
  }

  public List<StructField> fields() {
    return fields;
  }

  public int size() {
    return fields.size();
  }

  public StructField field(int ordinal) {
    return fields.get(ordinal);
  }

  /** The position of the named field, or -1. */
  public int indexOf(String name) {
    Integer index = indexByName.get(name);
    return index == null ? -1 : index;
  }

  public Optional<StructField> field(String name) {
    int index = indexOf(name);
    return index < 0 ? Optional.empty() : Optional.of(fields.get(index));
  }

  public List<String> fieldNames() {
    List<String> names = new ArrayList<>(fields.size());
    for (StructField field : fields) {
      names.add(field.name());
    }
    return names;
  }

  /** A new schema with {@code field} appended. */
  public StructType add(StructField field) {
    List<StructField> extended = new ArrayList<>(fields);
    extended.add(field);
    return new StructType(extended);
  }

  /** The schema with only the named fields, in the given order. */
  public StructType select(List<String> names) {
    List<StructField> selected = new ArrayList<>(names.size());
    for (String name : names) {
      selected.add(field(name).orElseThrow(
          () -> new IllegalArgumentException("no column '" + name + "' in schema " + fieldNames())));
    }
    return new StructType(selected);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StructType that && fields.equals(that.fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("struct<");
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(fields.get(i).name()).append(':').append(fields.get(i).type());
    }
    return sb.append('>').toString();
  }
}
