package io.mergesink.connect.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Makes the {@link Struct}s of values the {@link ValueReaders} read. Those values are valid for
 * their fields by construction: each reader gives its schema's Java type, and a null or absent
 * value of a required field without default never reaches here ({@link NotCanonical}). Yet
 * {@link Struct#put(Field, Object)} validates each value again, a nested struct's every field once
 * more, and builds an error-location string for each call before it knows whether the value is
 * valid: in the end-to-end profile that was more than half of this converter and a fifth of the
 * sink task (docs/design.md, "JSON converter"). So the values go into the struct's own array.
 *
 * <p>Connect's {@code Struct} has kept its values in a private {@code Object[] values}, indexed by
 * {@link Field#index()}, in every version this plugin supports (Kafka 3.6 to 4.3); this class checks
 * that once, on a probe struct, and falls back to {@code put} on a worker where it does not hold.
 */
final class TrustedStructs {
  private static final VarHandle VALUES = valuesOfStructs();

  private TrustedStructs() {}

  /** A struct of {@code schema} holding {@code values}, one per field of {@code fields} (the schema's, in order). */
  static Struct of(Schema schema, Field[] fields, Object[] values) {
    Struct struct = new Struct(schema);
    if (VALUES != null) {
      System.arraycopy(values, 0, (Object[]) VALUES.get(struct), 0, values.length);
    } else {
      for (int i = 0; i < fields.length; i++) {
        struct.put(fields[i], values[i]);
      }
    }
    return struct;
  }

  /** Whether structs are filled directly, not through {@code put}. */
  static boolean direct() {
    return VALUES != null;
  }

  /** The handle of {@code Struct.values}, or null when this worker's {@code Struct} does not keep its values there. */
  private static VarHandle valuesOfStructs() {
    try {
      VarHandle values = MethodHandles.privateLookupIn(Struct.class, MethodHandles.lookup())
          .findVarHandle(Struct.class, "values", Object[].class);
      Schema probeSchema = SchemaBuilder.struct()
          .field("first", Schema.OPTIONAL_INT32_SCHEMA)
          .field("second", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
      Struct probe = new Struct(probeSchema);
      Object[] array = (Object[]) values.get(probe);
      if (array.length != 2) {
        return null;
      }
      array[1] = "held";
      return "held".equals(probe.get("second")) && probe.get("first") == null ? values : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
