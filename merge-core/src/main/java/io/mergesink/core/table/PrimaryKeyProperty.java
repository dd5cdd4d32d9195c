package io.mergesink.core.table;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.StructType;
import java.util.List;
import java.util.Map;

/**
 * Where a table's primary key lives: the Delta {@code configuration} entry {@value #PROPERTY}, a
 * JSON array of column names (JSON so that any column name round-trips). Other Delta writers
 * carry it along untouched.
 */
public final class PrimaryKeyProperty {
  public static final String PROPERTY = "mergesink.primaryKey";
  private static final ObjectMapper JSON = new ObjectMapper();

  private PrimaryKeyProperty() {}

  /** The primary key columns recorded in the table's metadata; empty when the table has none. */
  public static List<String> of(Metadata metadata) {
    return of(metadata.configuration());
  }

  /** The primary key columns recorded in table properties (another format's, which keep the same entry); empty when none. */
  public static List<String> of(Map<String, String> properties) {
    String value = properties.get(PROPERTY);
    if (value == null || value.isBlank()) {
      return List.of();
    }
    try {
      return List.copyOf(JSON.readValue(value, new TypeReference<List<String>>() {}));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("table property " + PROPERTY + " is not a JSON array of column names: " + value, e);
    }
  }

  /** The configuration entry that records {@code keyColumns}. */
  public static Map<String, String> toProperty(List<String> keyColumns) {
    try {
      return Map.of(PROPERTY, JSON.writeValueAsString(keyColumns));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The positions of the key columns in {@code schema}. */
  public static int[] ordinals(StructType schema, List<String> keyColumns) {
    int[] ordinals = new int[keyColumns.size()];
    for (int i = 0; i < ordinals.length; i++) {
      ordinals[i] = schema.indexOf(keyColumns.get(i));
      if (ordinals[i] < 0) {
        throw new IllegalStateException("primary key column '" + keyColumns.get(i) + "' is not in the table schema " + schema.fieldNames());
      }
    }
    return ordinals;
  }

  static boolean isKeyType(DataType type) {
    return !(type instanceof StructType || type instanceof ArrayType || type instanceof MapType);
  }
}
