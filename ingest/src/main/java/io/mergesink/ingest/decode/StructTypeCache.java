package io.mergesink.ingest.decode;

import io.mergesink.core.types.StructType;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;

/**
 * The Delta struct type of each Connect struct schema, remembered by schema instance. Converters
 * hand out the same {@link Schema} instance for every record of one schema version (JsonConverter
 * and AvroConverter cache them), and converting it again per record cost about 2% of a task's CPU
 * in the end-to-end profile. Identity, not equality, keeps a hit as cheap as a pointer compare; a
 * converter that builds new instances per record only makes the cache miss, and the cache never
 * grows beyond {@value #MAX_ENTRIES} schemas. Not thread-safe: one per decoder.
 */
final class StructTypeCache {
  private static final int MAX_ENTRIES = 256;

  private final Map<Schema, StructType> types = new IdentityHashMap<>();

  StructType structType(Schema schema) {
    StructType type = types.get(schema);
    if (type == null) {
      type = SchemaConverter.toStructType(schema);
      if (types.size() >= MAX_ENTRIES) {
        types.clear();
      }
      types.put(schema, type);
    }
    return type;
  }
}
