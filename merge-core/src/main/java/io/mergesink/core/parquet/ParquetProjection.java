package io.mergesink.core.parquet;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Cuts a file's Parquet schema down to the columns a read asks for, so only their column chunks
 * are read. Fields are matched as {@link ColumnMatch} says and keep the read schema's order;
 * requested fields the file lacks are simply absent (they read as null).
 *
 * <p>Lists follow the Parquet spec's backward-compatibility rules for the repeated level: a
 * repeated primitive, a repeated group of several fields, or one named {@code array} or
 * {@code <list>_tuple} is itself the element (2-level lists of older writers); otherwise the
 * repeated group wraps the element (the standard 3-level list).
 */
final class ParquetProjection {
  private ParquetProjection() {}

  /**
   * The requested schema: the file's fields that {@code readSchema} reads, in its order.
   *
   * @throws IllegalArgumentException when matching by field id and the file has no field ids, so
   *     that every column would read as null (PROTOCOL.md: such files must be refused or read as nulls)
   */
  static MessageType clip(StructType readSchema, MessageType fileSchema, ColumnMatch match) {
    if (match == ColumnMatch.BY_FIELD_ID && fileSchema.getFieldCount() > 0
        && fileSchema.getFields().stream().allMatch(field -> field.getId() == null)) {
      throw new IllegalArgumentException("the file has no Parquet field ids, by which column mapping mode id finds its columns");
    }
    return new MessageType(fileSchema.getName(), clipFields(readSchema, fileSchema, match));
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

  private static List<Type> clipFields(StructType read, GroupType file, ColumnMatch match) {
    List<Type> fields = new ArrayList<>();
    for (StructField field : read.fields()) {
      Type fileField = match.find(file, field);
      if (fileField != null) {
        fields.add(clipType(field.type(), fileField, match));
      }
    }
    return fields;
  }

  private static Type clipType(DataType read, Type file, ColumnMatch match) {
    if (file.isPrimitive()) {
      return file;
    }
    GroupType group = file.asGroupType();
    if (read instanceof StructType struct && !isList(group) && !isMap(group)) {
      List<Type> fields = clipFields(struct, group, match);
      if (fields.isEmpty()) {
        // None of the wanted fields is in the file: keep one to tell a null struct from a struct of nulls.
        fields.add(group.getType(0));
      }
      return group.withNewFields(fields);
    }
    if (read instanceof ArrayType array && isList(group) && group.getFieldCount() == 1) {
      Type repeated = group.getType(0);
      if (isElement(repeated, group.getName())) {
        return group.withNewFields(clipType(array.elementType(), repeated, match));
      }
      GroupType wrapper = repeated.asGroupType();
      return group.withNewFields(wrapper.withNewFields(clipType(array.elementType(), wrapper.getType(0), match)));
    }
    if (read instanceof MapType map && isMap(group) && group.getFieldCount() == 1
        && !group.getType(0).isPrimitive()) {
      GroupType keyValue = group.getType(0).asGroupType();
      List<Type> fields = new ArrayList<>();
      fields.add(clipType(map.keyType(), keyValue.getType(0), match));
      if (keyValue.getFieldCount() > 1) {
        fields.add(clipType(map.valueType(), keyValue.getType(1), match));
      }
      return group.withNewFields(keyValue.withNewFields(fields));
    }
    return file; // a mismatch: the converter reports it with the column's name
  }
}
