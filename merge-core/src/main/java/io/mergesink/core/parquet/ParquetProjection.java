package io.mergesink.core.parquet;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Cuts a file's Parquet schema down to the columns a read asks for, so only their column chunks
 * are read. Fields are matched by name (exactly, else ignoring case as Delta does) and keep the
 * read schema's order; requested fields the file lacks are simply absent (they read as null).
 *
 * <p>Lists follow the Parquet spec's backward-compatibility rules for the repeated level: a
 * repeated primitive, a repeated group of several fields, or one named {@code array} or
 * {@code <list>_tuple} is itself the element (2-level lists of older writers); otherwise the
 * repeated group wraps the element (the standard 3-level list).
 */
final class ParquetProjection {
  private ParquetProjection() {}

  /** The requested schema: the file's fields that {@code readSchema} names, in its order. */
  static MessageType clip(StructType readSchema, MessageType fileSchema) {
    return new MessageType(fileSchema.getName(), clipFields(readSchema, fileSchema));
  }

  /** The file field matching {@code name}, or null. */
  static Type findField(GroupType group, String name) {
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

  /** True when the repeated field of a LIST group is the element itself (a legacy 2-level list). */
  static boolean isElement(Type repeated, String listName) {
    if (repeated.isPrimitive()) {
      return true;
    }
    GroupType group = repeated.asGroupType();
    return group.getFieldCount() > 1
        || group.getName().equals("array")
        || group.getName().equals(listName + "_tuple");
  }

  static boolean isList(Type type) {
    return !type.isPrimitive()
        && type.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation;
  }

  static boolean isMap(Type type) {
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    return !type.isPrimitive()
        && (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation);
  }

  private static List<Type> clipFields(StructType read, GroupType file) {
    List<Type> fields = new ArrayList<>();
    for (StructField field : read.fields()) {
      Type fileField = findField(file, field.name());
      if (fileField != null) {
        fields.add(clipType(field.type(), fileField));
      }
    }
    return fields;
  }

  private static Type clipType(DataType read, Type file) {
    if (file.isPrimitive()) {
      return file;
    }
    GroupType group = file.asGroupType();
    if (read instanceof StructType struct && !isList(group) && !isMap(group)) {
      List<Type> fields = clipFields(struct, group);
      if (fields.isEmpty()) {
        // None of the wanted fields is in the file: keep one to tell a null struct from a struct of nulls.
        fields.add(group.getType(0));
      }
      return group.withNewFields(fields);
    }
    if (read instanceof ArrayType array && isList(group) && group.getFieldCount() == 1) {
      Type repeated = group.getType(0);
      if (isElement(repeated, group.getName())) {
        return group.withNewFields(clipType(array.elementType(), repeated));
      }
      GroupType wrapper = repeated.asGroupType();
      return group.withNewFields(wrapper.withNewFields(clipType(array.elementType(), wrapper.getType(0))));
    }
    if (read instanceof MapType map && isMap(group) && group.getFieldCount() == 1
        && !group.getType(0).isPrimitive()) {
      GroupType keyValue = group.getType(0).asGroupType();
      List<Type> fields = new ArrayList<>();
      fields.add(clipType(map.keyType(), keyValue.getType(0)));
      if (keyValue.getFieldCount() > 1) {
        fields.add(clipType(map.valueType(), keyValue.getType(1)));
      }
      return group.withNewFields(keyValue.withNewFields(fields));
    }
    return file; // a mismatch: the converter reports it with the column's name
  }
}
