package io.mergesink.core.parquet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.mergesink.core.types.PrimitiveType;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Null count plus min and max of a column whose bounds Delta readers use for data skipping:
 * numbers, decimals, dates, timestamps and strings. A bound is only ever written when it is a
 * true bound of every non-null value in the file:
 * <ul>
 *   <li>float/double: no bounds once a NaN is seen; an infinite bound is left out (JSON has no
 *       infinity);</li>
 *   <li>timestamps: Delta writes milliseconds, so min is floored and max rounded up to the next
 *       millisecond when it had sub-millisecond digits;</li>
 *   <li>strings: compared by code point (the order of their UTF-8 bytes, as Delta compares them);
 *       min is cut to its first {@value StatsValues#STRING_PREFIX_LENGTH} code points (a prefix
 *       is never greater), max is left out when longer than that.</li>
 * </ul>
 */
final class BoundedColumnStats implements ColumnStats {
  private final Comparator<Object> order;
  private final Predicate<Object> poisons;
  private final Function<Object, JsonNode> minEncoder;
  private final Function<Object, JsonNode> maxEncoder;
  private long nullCount;
  private Object min;
  private Object max;
  private boolean poisoned;

  private BoundedColumnStats(Comparator<Object> order, Predicate<Object> poisons,
                             Function<Object, JsonNode> minEncoder, Function<Object, JsonNode> maxEncoder) {
    this.order = order;
    this.poisons = poisons;
    this.minEncoder = minEncoder;
    this.maxEncoder = maxEncoder;
  }

  static BoundedColumnStats forDecimal() {
    return natural(value -> new DecimalNode((BigDecimal) value));
  }

  static BoundedColumnStats forPrimitive(PrimitiveType type) {
    return switch (type) {
      case BYTE -> natural(value -> ShortNode.valueOf((Byte) value));
      case SHORT -> natural(value -> ShortNode.valueOf((Short) value));
      case INTEGER -> natural(value -> IntNode.valueOf((Integer) value));
      case LONG -> natural(value -> LongNode.valueOf((Long) value));
      case FLOAT -> new BoundedColumnStats(naturalOrder(), value -> ((Float) value).isNaN(),
          value -> ((Float) value).isInfinite() ? null : FloatNode.valueOf((Float) value),
          value -> ((Float) value).isInfinite() ? null : FloatNode.valueOf((Float) value));
      case DOUBLE -> new BoundedColumnStats(naturalOrder(), value -> ((Double) value).isNaN(),
          value -> ((Double) value).isInfinite() ? null : DoubleNode.valueOf((Double) value),
          value -> ((Double) value).isInfinite() ? null : DoubleNode.valueOf((Double) value));
      case DATE -> natural(value -> text(StatsValues.date((Integer) value)));
      case TIMESTAMP -> new BoundedColumnStats(naturalOrder(), value -> false,
          value -> text(StatsValues.timestampFloor((Long) value, true)),
          value -> text(StatsValues.timestampCeiling((Long) value, true)));
      case TIMESTAMP_NTZ -> new BoundedColumnStats(naturalOrder(), value -> false,
          value -> text(StatsValues.timestampFloor((Long) value, false)),
          value -> text(StatsValues.timestampCeiling((Long) value, false)));
      case STRING -> new BoundedColumnStats(
          (a, b) -> StatsValues.compareCodePoints((String) a, (String) b), value -> false,
          value -> text(StatsValues.stringLowerBound((String) value)),
          value -> text(StatsValues.stringUpperBound((String) value)));
      case BOOLEAN, BINARY -> throw new IllegalArgumentException(type + " columns have no bounds in Delta stats");
    };
  }

  private static BoundedColumnStats natural(Function<Object, JsonNode> encoder) {
    return new BoundedColumnStats(naturalOrder(), value -> false, encoder, encoder);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object> naturalOrder() {
    return (a, b) -> ((Comparable) a).compareTo(b);
  }

  private static JsonNode text(String value) {
    return value == null ? null : TextNode.valueOf(value);
  }

  @Override
  public void add(Object value) {
    if (value == null) {
      nullCount++;
      return;
    }
    if (poisoned) {
      return;
    }
    if (poisons.test(value)) {
      poisoned = true;
      min = null;
      max = null;
      return;
    }
    if (min == null || order.compare(value, min) < 0) {
      min = value;
    }
    if (max == null || order.compare(value, max) > 0) {
      max = value;
    }
  }

  @Override
  public void putMin(ObjectNode target, String name) {
    JsonNode bound = min == null ? null : minEncoder.apply(min);
    if (bound != null) {
      target.set(name, bound);
    }
  }

  @Override
  public void putMax(ObjectNode target, String name) {
    JsonNode bound = max == null ? null : maxEncoder.apply(max);
    if (bound != null) {
      target.set(name, bound);
    }
  }

  @Override
  public void putNullCount(ObjectNode target, String name) {
    target.put(name, nullCount);
  }
}
