package io.mergesink.core.parquet;

import io.mergesink.core.types.MapType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;

/**
 * Assembles a {@link Map} (in file order) from a MAP-annotated group whose repeated group holds
 * the key as its first field and the value as its second.
 */
final class MapConverter extends GroupConverter {
  private final ValueSink sink;
  private final EntryConverter entries;
  private Map<Object, Object> map;

  MapConverter(MapType read, GroupType file, ColumnMatch match, ValueSink sink, String column) {
    this.sink = sink;
    this.entries = new EntryConverter(read, file.getType(0).asGroupType(), match, column);
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return entries;
  }

  @Override
  public void start() {
    map = new LinkedHashMap<>();
  }

  @Override
  public void end() {
    sink.set(Collections.unmodifiableMap(map));
  }

  private final class EntryConverter extends GroupConverter {
    private final Converter[] fields;
    private Object key;
    private Object value;

    EntryConverter(MapType read, GroupType keyValue, ColumnMatch match, String column) {
      fields = new Converter[keyValue.getFieldCount()];
      fields[0] = Converters.of(read.keyType(), keyValue.getType(0), match, k -> key = k,
          column + "." + ParquetSchemas.MAP_KEY_NAME);
      if (fields.length > 1) {
        fields[1] = Converters.of(read.valueType(), keyValue.getType(1), match, v -> value = v,
            column + "." + ParquetSchemas.MAP_VALUE_NAME);
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return fields[fieldIndex];
    }

    @Override
    public void start() {
      key = null;
      value = null;
    }

    @Override
    public void end() {
      map.put(key, value);
    }
  }
}
