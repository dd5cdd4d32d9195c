package io.mergesink.ingest.align;

import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Maps rows of an event schema onto a table schema, by column name.
 *
 * <ul>
 *   <li>Table columns missing from the event get null; a missing non-nullable column is an error
 *       when the aligner is made.
 *   <li>Event columns missing from the table are {@link #extraColumns()}; {@link #align} leaves
 *       them out, so the caller first evolves the table (or rejects the record, with
 *       {@code schema.evolution=none}).
 *   <li>A value whose type is narrower than the column's is widened: byte → short → integer →
 *       long, float → double, decimal(p, s) → decimal(p', s') with s' ≥ s and p' − s' ≥ p − s, also
 *       inside arrays, maps and structs. Any other type difference is an error for the rows that
 *       have a value in that column (null and {@link Unchanged#VALUE} pass).
 *   <li>Null in a non-nullable column is an error.
 * </ul>
 *
 * An aligner is immutable; make one per (event schema, table schema) pair and reuse it.
 */
public final class RowAligner {
  private final String table;
  private final StructType target;
  private final int[] sourceIndex;
  private final List<UnaryOperator<Object>> converters;
  private final String[] mismatches;
  private final List<StructField> extraColumns;
  private final List<StructField> mismatchedColumns;

  private RowAligner(String table, StructType target, int[] sourceIndex, List<UnaryOperator<Object>> converters,
      String[] mismatches, List<StructField> extraColumns, List<StructField> mismatchedColumns) {
    this.table = table;
    this.target = target;
    this.sourceIndex = sourceIndex;
    this.converters = converters;
    this.mismatches = mismatches;
    this.extraColumns = List.copyOf(extraColumns);
    this.mismatchedColumns = List.copyOf(mismatchedColumns);
  }

  /**
   * An aligner from {@code source} rows to {@code target} rows.
   *
   * @param table the table's name or path, for messages
   * @throws SchemaMismatchException when a non-nullable table column is missing from {@code source}
   */
  public static RowAligner of(String table, StructType source, StructType target) {
    Objects.requireNonNull(table, "table");
    int[] sourceIndex = new int[target.size()];
    List<UnaryOperator<Object>> converters = new ArrayList<>(target.size());
    String[] mismatches = new String[target.size()];
    List<StructField> mismatched = new ArrayList<>();
    for (int i = 0; i < target.size(); i++) {
      StructField column = target.field(i);
      sourceIndex[i] = source.indexOf(column.name());
      if (sourceIndex[i] < 0) {
        if (!column.nullable()) {
          throw new SchemaMismatchException("table " + table + ": column '" + column.name() + "' (" + column.type()
              + ", not null) is missing from the record, whose columns are " + source.fieldNames());
        }
        converters.add(UnaryOperator.identity());
        continue;
      }
      DataType from = source.field(sourceIndex[i]).type();
      UnaryOperator<Object> converter = converter(from, column.type());
      if (converter == null) {
        mismatches[i] = "table " + table + ": column '" + column.name() + "' is " + column.type()
            + " but the record has " + from;
        mismatched.add(source.field(sourceIndex[i]));
        converter = UnaryOperator.identity();
      }
      converters.add(converter);
    }
    List<StructField> extra = new ArrayList<>();
    for (StructField field : source.fields()) {
      if (target.indexOf(field.name()) < 0) {
        extra.add(field);
      }
    }
    return new RowAligner(table, target, sourceIndex, converters, mismatches, extra, mismatched);
  }

  /** Columns of the event schema the table lacks, in event order (nullable as added columns must be). */
  public List<StructField> extraColumns() {
    return extraColumns;
  }

  public boolean hasExtraColumns() {
    return !extraColumns.isEmpty();
  }

  /**
   * Columns of the event schema whose type does not fit the table's column of that name, with the
   * event's type, in table order: rows with a value there are refused, unless the table widens them.
   */
  public List<StructField> mismatchedColumns() {
    return mismatchedColumns;
  }

  /**
   * The row in table schema order.
   *
   * @throws SchemaMismatchException naming table and column for a null in a non-nullable column
   *     or a value of an incompatible type
   */
  public Row align(Row row) {
    Object[] values = new Object[target.size()];
    for (int i = 0; i < values.length; i++) {
      Object value = sourceIndex[i] < 0 ? null : row.get(sourceIndex[i]);
      if (value == null) {
        if (!target.field(i).nullable()) {
          throw new SchemaMismatchException("table " + table + ": column '" + target.field(i).name()
              + "' is not nullable but the record has null");
        }
        continue;
      }
      if (value == Unchanged.VALUE) {
        values[i] = value;
        continue;
      }
      if (mismatches[i] != null) {
        throw new SchemaMismatchException(mismatches[i]);
      }
      values[i] = converters.get(i).apply(value);
    }
    return Row.of(values);
  }

  /** A value converter from {@code from} to {@code to}, or null when {@code from} does not fit. */
  static UnaryOperator<Object> converter(DataType from, DataType to) {
    if (from.equals(to)) {
      return UnaryOperator.identity();
    }
    if (from instanceof PrimitiveType a && to instanceof PrimitiveType b) {
      return widening(a, b);
    }
    if (from instanceof DecimalType a && to instanceof DecimalType b) {
      boolean fits = b.scale() >= a.scale() && b.precision() - b.scale() >= a.precision() - a.scale();
      return fits ? value -> ((BigDecimal) value).setScale(b.scale()) : null;
    }
    if (from instanceof ArrayType a && to instanceof ArrayType b) {
      UnaryOperator<Object> element = converter(a.elementType(), b.elementType());
      return element == null ? null : value -> mapList((List<?>) value, element);
    }
    if (from instanceof MapType a && to instanceof MapType b) {
      UnaryOperator<Object> key = converter(a.keyType(), b.keyType());
      UnaryOperator<Object> val = converter(a.valueType(), b.valueType());
      return key == null || val == null ? null : value -> mapMap((Map<?, ?>) value, key, val);
    }
    if (from instanceof StructType a && to instanceof StructType b) {
      return structConverter(a, b);
    }
    return null;
  }

  private static UnaryOperator<Object> structConverter(StructType from, StructType to) {
    if (!from.fieldNames().equals(to.fieldNames())) {
      return null;
    }
    List<UnaryOperator<Object>> fields = new ArrayList<>();
    for (int i = 0; i < to.size(); i++) {
      UnaryOperator<Object> field = converter(from.field(i).type(), to.field(i).type());
      if (field == null) {
        return null;
      }
      fields.add(field);
    }
    return value -> {
      Row row = (Row) value;
      Object[] values = new Object[row.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = row.get(i) == null ? null : fields.get(i).apply(row.get(i));
      }
      return Row.of(values);
    };
  }

  private static UnaryOperator<Object> widening(PrimitiveType from, PrimitiveType to) {
    int fromRank = integerRank(from);
    int toRank = integerRank(to);
    if (fromRank >= 0 && toRank > fromRank) {
      return switch (to) {
        case SHORT -> value -> ((Number) value).shortValue();
        case INTEGER -> value -> ((Number) value).intValue();
        default -> value -> ((Number) value).longValue();
      };
    }
    if (from == PrimitiveType.FLOAT && to == PrimitiveType.DOUBLE) {
      return value -> ((Number) value).doubleValue(); // exact, as Spark's cast
    }
    return null;
  }

  private static int integerRank(PrimitiveType type) {
    return switch (type) {
      case BYTE -> 0;
      case SHORT -> 1;
      case INTEGER -> 2;
      case LONG -> 3;
      default -> -1;
    };
  }

  private static List<Object> mapList(List<?> list, UnaryOperator<Object> element) {
    List<Object> out = new ArrayList<>(list.size());
    for (Object item : list) {
      out.add(item == null ? null : element.apply(item));
    }
    return out;
  }

  private static Map<Object, Object> mapMap(Map<?, ?> map, UnaryOperator<Object> key, UnaryOperator<Object> value) {
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      out.put(key.apply(entry.getKey()), entry.getValue() == null ? null : value.apply(entry.getValue()));
    }
    return out;
  }
}
