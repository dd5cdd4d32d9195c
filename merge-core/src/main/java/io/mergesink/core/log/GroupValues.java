package io.mergesink.core.log;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Null-tolerant reads of a checkpoint row's fields. A field missing from the file's schema (other
 * writers omit columns they never fill) reads as null, like a null value.
 */
final class GroupValues {
  private GroupValues() {}

  static boolean present(Group g, String field) {
    return g != null && g.getType().containsField(field) && g.getFieldRepetitionCount(field) > 0;
  }

  static Group group(Group g, String field) {
    return present(g, field) ? g.getGroup(field, 0) : null;
  }

  static String string(Group g, String field) {
    return present(g, field) ? g.getString(field, 0) : null;
  }

  static Long optLong(Group g, String field) {
    if (!present(g, field)) {
      return null;
    }
    PrimitiveTypeName type = g.getType().getType(field).asPrimitiveType().getPrimitiveTypeName();
    return type == PrimitiveTypeName.INT32 ? (long) g.getInteger(field, 0) : g.getLong(field, 0);
  }

  static Boolean optBoolean(Group g, String field) {
    return present(g, field) ? g.getBoolean(field, 0) : null;
  }

  /** A {@code MAP} of strings, whatever the name of its repeated entry group; null when absent. */
  static Map<String, String> stringMap(Group g, String field) {
    Group map = group(g, field);
    if (map == null) {
      return null;
    }
    Map<String, String> result = new LinkedHashMap<>();
    if (map.getType().getFieldCount() == 0) {
      return result;
    }
    int entries = map.getFieldRepetitionCount(0);
    for (int i = 0; i < entries; i++) {
      Group entry = map.getGroup(0, i);
      String key = entry.getString(0, 0);
      String value = entry.getFieldRepetitionCount(1) > 0 ? entry.getString(1, 0) : null;
      result.put(key, value);
    }
    return result;
  }

  /** A {@code LIST} of strings in the 3-level or legacy 2-level layout; null when absent. */
  static List<String> stringList(Group g, String field) {
    Group list = group(g, field);
    if (list == null) {
      return null;
    }
    List<String> result = new ArrayList<>();
    if (list.getType().getFieldCount() == 0) {
      return result;
    }
    Type repeated = list.getType().getType(0);
    int entries = list.getFieldRepetitionCount(0);
    for (int i = 0; i < entries; i++) {
      if (repeated.isPrimitive()) {
        result.add(list.getString(0, i));
      } else {
        Group element = list.getGroup(0, i);
        GroupType elementType = element.getType();
        result.add(elementType.getFieldCount() > 0 && element.getFieldRepetitionCount(0) > 0
            ? element.getString(0, 0) : null);
      }
    }
    return result;
  }

  static Set<String> stringSet(Group g, String field) {
    List<String> list = stringList(g, field);
    return list == null ? null : new LinkedHashSet<>(list);
  }
}
