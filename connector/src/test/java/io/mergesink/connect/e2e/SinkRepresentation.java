package io.mergesink.connect.e2e;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * What a PostgreSQL column becomes in a MergeSink table when Debezium streams it with the deploy
 * file's options ({@code decimal.handling.mode=precise},
 * {@code time.precision.mode=adaptive_time_microseconds}): the Delta type the sink must create and
 * the in-memory value (as Delta Kernel reads it back) of a JDBC column value. This is the
 * connector's type mapping (see {@code SchemaConverter}) written down independently, from the
 * PostgreSQL side:
 *
 * <table>
 *   <caption>PostgreSQL type → Delta type, value</caption>
 *   <tr><td>smallint, integer, bigint</td><td>short, integer, long</td></tr>
 *   <tr><td>numeric(p, s)</td><td>decimal(p, s), BigDecimal of scale s</td></tr>
 *   <tr><td>numeric</td><td>string, the value in plain notation without trailing zeros (as Debezium sends it)</td></tr>
 *   <tr><td>real, double precision</td><td>float, double</td></tr>
 *   <tr><td>text, varchar, jsonb, uuid</td><td>string (jsonb compared as parsed JSON)</td></tr>
 *   <tr><td>boolean, bytea</td><td>boolean, binary ({@code byte[]})</td></tr>
 *   <tr><td>date</td><td>date, Integer days since 1970-01-01</td></tr>
 *   <tr><td>timestamp</td><td>timestamp_ntz, Long microseconds of the wall clock as if UTC</td></tr>
 *   <tr><td>timestamptz</td><td>timestamp, Long microseconds since the epoch (UTC)</td></tr>
 *   <tr><td>time</td><td>long, microseconds since midnight</td></tr>
 *   <tr><td>integer[]</td><td>array&lt;integer&gt; (nullable elements), List of Integer</td></tr>
 * </table>
 */
enum SinkRepresentation {
  SMALLINT(PrimitiveType.SHORT) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      short value = rows.getShort(column);
      return rows.wasNull() ? null : value;
    }
  },
  INTEGER(PrimitiveType.INTEGER) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      int value = rows.getInt(column);
      return rows.wasNull() ? null : value;
    }
  },
  BIGINT(PrimitiveType.LONG) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      long value = rows.getLong(column);
      return rows.wasNull() ? null : value;
    }
  },
  /** numeric(p, s): a Connect Decimal; its Delta type is decimal(p, s) (see {@link #deltaType(int, int)}). */
  DECIMAL(null) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      return rows.getBigDecimal(column);
    }
  },
  /**
   * numeric without declared scale: Debezium's VariableScaleDecimal, in plain notation. Debezium's
   * PostgreSQL connector strips trailing zeros from these values ({@code PostgresValueConverter.convertDecimal}
   * with {@code decimal.handling.mode=precise}), so PostgreSQL's {@code 1.50} arrives, and is stored, as {@code 1.5}.
   */
  VARIABLE_NUMERIC(PrimitiveType.STRING) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      BigDecimal value = rows.getBigDecimal(column);
      if (value == null) {
        return null;
      }
      BigDecimal stripped = value.stripTrailingZeros();
      return (stripped.scale() < 0 ? stripped.setScale(0) : stripped).toPlainString();
    }
  },
  REAL(PrimitiveType.FLOAT) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      float value = rows.getFloat(column);
      return rows.wasNull() ? null : value;
    }
  },
  DOUBLE(PrimitiveType.DOUBLE) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      double value = rows.getDouble(column);
      return rows.wasNull() ? null : value;
    }
  },
  /** text, varchar, uuid and jsonb (jsonb is compared parsed, see {@link TableDiff}). */
  STRING(PrimitiveType.STRING) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      return rows.getString(column);
    }
  },
  BOOLEAN(PrimitiveType.BOOLEAN) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      boolean value = rows.getBoolean(column);
      return rows.wasNull() ? null : value;
    }
  },
  BYTEA(PrimitiveType.BINARY) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      return rows.getBytes(column);
    }
  },
  DATE(PrimitiveType.DATE) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      LocalDate date = rows.getObject(column, LocalDate.class);
      return date == null ? null : Math.toIntExact(date.toEpochDay());
    }
  },
  TIMESTAMP(PrimitiveType.TIMESTAMP_NTZ) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      LocalDateTime time = rows.getObject(column, LocalDateTime.class);
      return time == null ? null : micros(time.toEpochSecond(ZoneOffset.UTC), time.getNano());
    }
  },
  TIMESTAMPTZ(PrimitiveType.TIMESTAMP) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      OffsetDateTime time = rows.getObject(column, OffsetDateTime.class);
      return time == null ? null : micros(time.toEpochSecond(), time.getNano());
    }
  },
  TIME(PrimitiveType.LONG) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      LocalTime time = rows.getObject(column, LocalTime.class);
      return time == null ? null : time.toNanoOfDay() / NANOS_PER_MICRO;
    }
  },
  INTEGER_ARRAY(new ArrayType(PrimitiveType.INTEGER, true)) {
    @Override
    Object read(ResultSet rows, int column) throws SQLException {
      Array array = rows.getArray(column);
      return array == null ? null : new ArrayList<>(Arrays.asList((Integer[]) array.getArray()));
    }
  };

  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private final DataType deltaType;

  SinkRepresentation(DataType deltaType) {
    this.deltaType = deltaType;
  }

  /**
   * The Delta type of a column of this representation.
   *
   * @param precision {@code numeric_precision}, used by {@link #DECIMAL} only
   * @param scale {@code numeric_scale}, used by {@link #DECIMAL} only
   */
  DataType deltaType(Integer precision, Integer scale) {
    return this == DECIMAL ? new DecimalType(precision, scale) : deltaType;
  }

  /** The in-memory value of column {@code column} of the current row (null for SQL NULL). */
  abstract Object read(ResultSet rows, int column) throws SQLException;

  /**
   * The representation of a column as {@code information_schema.columns} describes it.
   *
   * @param dataType {@code data_type}, e.g. {@code integer}, {@code ARRAY}
   * @param udtName {@code udt_name}, e.g. {@code int4}, {@code _int4}
   * @param numericScale {@code numeric_scale}, null for numeric without declared scale
   * @throws IllegalArgumentException for a type the end-to-end tests do not cover
   */
  static SinkRepresentation of(String dataType, String udtName, Integer numericScale) {
    return switch (udtName) {
      case "int2" -> SMALLINT;
      case "int4" -> INTEGER;
      case "int8" -> BIGINT;
      case "numeric" -> numericScale == null ? VARIABLE_NUMERIC : DECIMAL;
      case "float4" -> REAL;
      case "float8" -> DOUBLE;
      case "text", "varchar", "uuid", "jsonb" -> STRING;
      case "bool" -> BOOLEAN;
      case "bytea" -> BYTEA;
      case "date" -> DATE;
      case "timestamp" -> TIMESTAMP;
      case "timestamptz" -> TIMESTAMPTZ;
      case "time" -> TIME;
      case "_int4" -> INTEGER_ARRAY;
      default -> throw new IllegalArgumentException("no sink representation written down for PostgreSQL type "
          + dataType + " (" + udtName + ")");
    };
  }

  private static long micros(long epochSecond, int nanos) {
    return Math.addExact(Math.multiplyExact(epochSecond, MICROS_PER_SECOND), nanos / NANOS_PER_MICRO);
  }
}
