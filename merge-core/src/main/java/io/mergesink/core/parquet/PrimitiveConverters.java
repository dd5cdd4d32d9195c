package io.mergesink.core.parquet;

import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Converters from a Parquet primitive column to the in-memory value of a Delta type, accepting the
 * physical layouts other writers use: INT8/INT16 in INT32, timestamps as INT64 of any unit or
 * INT96, decimals as INT32, INT64, FIXED_LEN_BYTE_ARRAY or BINARY; and the values of files written
 * before a column was widened (PROTOCOL.md, "Type Widening"): integers read as longs, doubles or
 * decimals, floats as doubles, dates as timestamp_ntz (midnight), decimals rescaled to a larger
 * scale.
 */
final class PrimitiveConverters {
  private static final long MICROS_PER_MILLI = 1_000L;
  private static final long NANOS_PER_MICRO = 1_000L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private PrimitiveConverters() {}

  /**
   * A converter for {@code file} values read as {@code read}.
   *
   * @throws IllegalArgumentException when the Parquet type cannot hold values of the Delta type
   */
  static PrimitiveConverter of(DataType read, org.apache.parquet.schema.PrimitiveType file, ValueSink sink,
                               String column) {
    PrimitiveTypeName physical = file.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = file.getLogicalTypeAnnotation();
    if (read instanceof DecimalType decimal) {
      PrimitiveConverter converter = decimal(decimal, physical, annotation, sink);
      if (converter != null) {
        return converter;
      }
    } else if (read instanceof PrimitiveType primitive) {
      PrimitiveConverter converter = primitive(primitive, physical, annotation, sink);
      if (converter != null) {
        return converter;
      }
    }
    throw new IllegalArgumentException("column '" + column + "' is read as " + read
        + " but the file stores it as Parquet " + file);
  }

  private static PrimitiveConverter primitive(PrimitiveType read, PrimitiveTypeName physical,
                                              LogicalTypeAnnotation annotation, ValueSink sink) {
    return switch (read) {
      case BOOLEAN -> physical != PrimitiveTypeName.BOOLEAN ? null : new PrimitiveConverter() {
        @Override
        public void addBoolean(boolean value) {
          sink.set(value);
        }
      };
      case BYTE -> physical != PrimitiveTypeName.INT32 ? null : new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          sink.set((byte) value);
        }
      };
      case SHORT -> physical != PrimitiveTypeName.INT32 ? null : new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          sink.set((short) value);
        }
      };
      case INTEGER, DATE -> physical != PrimitiveTypeName.INT32 ? null : new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          sink.set(value);
        }
      };
      case LONG -> physical != PrimitiveTypeName.INT64 && physical != PrimitiveTypeName.INT32 ? null
          : new PrimitiveConverter() {
            @Override
            public void addLong(long value) {
              sink.set(value);
            }

            @Override
            public void addInt(int value) {
              sink.set((long) value);
            }
          };
      case FLOAT -> physical != PrimitiveTypeName.FLOAT ? null : new PrimitiveConverter() {
        @Override
        public void addFloat(float value) {
          sink.set(value);
        }
      };
      case DOUBLE -> physical != PrimitiveTypeName.DOUBLE && physical != PrimitiveTypeName.FLOAT && !isInt32Integer(physical, annotation)
          ? null
          : new PrimitiveConverter() {
            @Override
            public void addDouble(double value) {
              sink.set(value);
            }

            @Override
            public void addFloat(float value) {
              sink.set((double) value);
            }

            @Override
            public void addInt(int value) {
              sink.set((double) value);
            }
          };
      case STRING -> isBytes(physical) ? new StringConverter(sink) : null;
      case BINARY -> isBytes(physical) ? new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {
          byte[] bytes = new byte[value.length()];
          value.toByteBuffer().get(bytes);
          sink.set(bytes);
        }
      } : null;
      case TIMESTAMP -> timestamp(physical, annotation, sink);
      case TIMESTAMP_NTZ -> annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation ? new PrimitiveConverter() {
        @Override
        public void addInt(int days) {
          sink.set(Math.multiplyExact(days, MICROS_PER_DAY));
        }
      } : timestamp(physical, annotation, sink);
    };
  }

  /** An INT32 holding an integer (byte, short or int), not a date or a decimal. */
  private static boolean isInt32Integer(PrimitiveTypeName physical, LogicalTypeAnnotation annotation) {
    return physical == PrimitiveTypeName.INT32
        && (annotation == null || annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation);
  }

  private static PrimitiveConverter timestamp(PrimitiveTypeName physical, LogicalTypeAnnotation annotation,
                                              ValueSink sink) {
    if (physical == PrimitiveTypeName.INT96) {
      return new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {
          sink.set(Int96Timestamps.toMicros(value));
        }
      };
    }
    if (physical != PrimitiveTypeName.INT64) {
      return null;
    }
    LogicalTypeAnnotation.TimeUnit unit = annotation instanceof TimestampLogicalTypeAnnotation timestamp
        ? timestamp.getUnit() : LogicalTypeAnnotation.TimeUnit.MICROS;
    return switch (unit) {
      case MICROS -> new PrimitiveConverter() {
        @Override
        public void addLong(long value) {
          sink.set(value);
        }
      };
      case MILLIS -> new PrimitiveConverter() {
        @Override
        public void addLong(long value) {
          sink.set(Math.multiplyExact(value, MICROS_PER_MILLI));
        }
      };
      case NANOS -> new PrimitiveConverter() {
        @Override
        public void addLong(long value) {
          sink.set(Math.floorDiv(value, NANOS_PER_MICRO));
        }
      };
    };
  }

  private static PrimitiveConverter decimal(DecimalType read, PrimitiveTypeName physical,
                                            LogicalTypeAnnotation annotation, ValueSink sink) {
    // An integer column (no DECIMAL annotation) read as a decimal was widened from an integer type.
    int fileScale = annotation instanceof DecimalLogicalTypeAnnotation decimal ? decimal.getScale() : 0;
    int readScale = read.scale();
    return switch (physical) {
      case INT32, INT64 -> new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          sink.set(rescale(BigDecimal.valueOf(value, fileScale), readScale));
        }

        @Override
        public void addLong(long value) {
          sink.set(rescale(BigDecimal.valueOf(value, fileScale), readScale));
        }
      };
      case BINARY, FIXED_LEN_BYTE_ARRAY -> new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {
          sink.set(rescale(new BigDecimal(new BigInteger(value.getBytes()), fileScale), readScale));
        }
      };
      default -> null;
    };
  }

  private static BigDecimal rescale(BigDecimal value, int scale) {
    return value.scale() == scale ? value : value.setScale(scale, RoundingMode.UNNECESSARY);
  }

  private static boolean isBytes(PrimitiveTypeName physical) {
    return physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
  }

  /** UTF-8 strings; dictionary pages are decoded once per column chunk, not once per value. */
  private static final class StringConverter extends PrimitiveConverter {
    private final ValueSink sink;
    private String[] dictionary;

    StringConverter(ValueSink sink) {
      this.sink = sink;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      this.dictionary = new String[dictionary.getMaxId() + 1];
      for (int id = 0; id < this.dictionary.length; id++) {
        this.dictionary[id] = dictionary.decodeToBinary(id).toStringUsingUTF8();
      }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      sink.set(dictionary[dictionaryId]);
    }

    @Override
    public void addBinary(Binary value) {
      sink.set(value.toStringUsingUTF8());
    }
  }
}
