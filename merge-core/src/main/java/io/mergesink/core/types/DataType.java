package io.mergesink.core.types;

/**
 * A Delta column type. The set mirrors the types of the Delta protocol's schema serialization
 * ("Schema Serialization Format" in PROTOCOL.md) that MergeSink reads and writes.
 *
 * <p>In-memory values of each type (see {@link io.mergesink.core.data.Row}):
 * boolean → {@link Boolean}, byte → {@link Byte}, short → {@link Short}, integer → {@link Integer},
 * long → {@link Long}, float → {@link Float}, double → {@link Double}, string → {@link String},
 * binary → {@code byte[]}, date → {@link Integer} days since 1970-01-01, timestamp and
 * timestamp_ntz → {@link Long} microseconds since 1970-01-01T00:00 (UTC for timestamp),
 * decimal → {@link java.math.BigDecimal} with the type's scale, array → {@link java.util.List},
 * map → {@link java.util.Map}, struct → {@link io.mergesink.core.data.Row}. Null is null.
 */
public sealed interface DataType permits PrimitiveType, DecimalType, ArrayType, MapType, StructType {}
