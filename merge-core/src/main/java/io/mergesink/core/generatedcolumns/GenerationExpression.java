package io.mergesink.core.generatedcolumns;

import io.mergesink.core.types.DataType;
import io.mergesink.core.types.PrimitiveType;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A generation expression MergeSink computes: a function of one date, timestamp or timestamp_ntz
 * column, written in Spark SQL as Delta stores it in {@value GeneratedColumns#EXPRESSION_KEY}.
 *
 * <table>
 *   <tr><th>SQL</th><th>type</th><th>value</th></tr>
 *   <tr><td>{@code CAST(c AS DATE)}, {@code TO_DATE(c)}</td><td>date</td><td>the day of {@code c}</td></tr>
 *   <tr><td>{@code YEAR(c)}</td><td>integer</td><td>its year</td></tr>
 *   <tr><td>{@code MONTH(c)}</td><td>integer</td><td>its month, 1 to 12</td></tr>
 *   <tr><td>{@code DAY(c)}, {@code DAYOFMONTH(c)}</td><td>integer</td><td>its day of the month, 1 to 31</td></tr>
 *   <tr><td>{@code HOUR(c)}</td><td>integer</td><td>its hour, 0 to 23 (0 for a date)</td></tr>
 * </table>
 *
 * Timestamps (with time zone) are taken in UTC, as Spark takes them with its session time zone
 * {@code UTC}; timestamp_ntz values as they are. Null in, null out. Keywords and function names are
 * matched ignoring case; the column is a plain identifier or a backquoted one.
 *
 * @param function what is computed
 * @param column the source column's name
 */
public record GenerationExpression(Function function, String column) {
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final long MICROS_PER_HOUR = 3_600_000_000L;
  private static final String IDENTIFIER = "([A-Za-z_][A-Za-z0-9_]*|`(?:[^`]|``)+`)";
  private static final Pattern CAST = Pattern.compile("(?i)\\s*CAST\\s*\\(\\s*" + IDENTIFIER + "\\s+AS\\s+DATE\\s*\\)\\s*");
  private static final Pattern CALL = Pattern.compile("(?i)\\s*([A-Z_]+)\\s*\\(\\s*" + IDENTIFIER + "\\s*\\)\\s*");
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** The functions of the supported set. */
  public enum Function {
    DATE(PrimitiveType.DATE), YEAR(PrimitiveType.INTEGER), MONTH(PrimitiveType.INTEGER), DAY(PrimitiveType.INTEGER),
    HOUR(PrimitiveType.INTEGER);

    private final DataType resultType;

    Function(DataType resultType) {
      this.resultType = resultType;
    }
  }

  /** The expressions MergeSink computes, for messages. */
  public static final String SUPPORTED = "CAST(c AS DATE), TO_DATE(c), YEAR(c), MONTH(c), DAY(c) or DAYOFMONTH(c), HOUR(c) "
      + "of a date, timestamp or timestamp_ntz column c";

  /** The expression {@code sql} is, when it is one of the supported set. */
  public static Optional<GenerationExpression> parse(String sql) {
    Matcher cast = CAST.matcher(sql);
    if (cast.matches()) {
      return Optional.of(new GenerationExpression(Function.DATE, identifier(cast.group(1))));
    }
    Matcher call = CALL.matcher(sql);
    if (!call.matches()) {
      return Optional.empty();
    }
    Function function = switch (call.group(1).toUpperCase(Locale.ROOT)) {
      case "TO_DATE" -> Function.DATE;
      case "YEAR" -> Function.YEAR;
      case "MONTH" -> Function.MONTH;
      case "DAY", "DAYOFMONTH" -> Function.DAY;
      case "HOUR" -> Function.HOUR;
      default -> null;
    };
    return function == null ? Optional.empty() : Optional.of(new GenerationExpression(function, identifier(call.group(2))));
  }

  /** The type of the values: date for the day, integer for the others. */
  public DataType resultType() {
    return function.resultType;
  }

  /** Whether a column of {@code type} can be the source. */
  public static boolean acceptsSource(DataType type) {
    return type == PrimitiveType.DATE || type == PrimitiveType.TIMESTAMP || type == PrimitiveType.TIMESTAMP_NTZ;
  }

  /** The expression as Spark SQL, as written into {@value GeneratedColumns#EXPRESSION_KEY} of new tables. */
  public String sql() {
    String quoted = PLAIN.matcher(column).matches() ? column : "`" + column.replace("`", "``") + "`";
    return function == Function.DATE ? "CAST(" + quoted + " AS DATE)" : function.name() + "(" + quoted + ")";
  }

  /**
   * The value for source value {@code value} of a column of {@code sourceType} (a date as its epoch
   * day, a timestamp as microseconds since the epoch), as Spark computes it.
   */
  Object evaluate(DataType sourceType, Object value) {
    if (value == null) {
      return null;
    }
    long day;
    long microsOfDay;
    if (sourceType == PrimitiveType.DATE) {
      day = (Integer) value;
      microsOfDay = 0;
    } else {
      long micros = (Long) value;
      day = Math.floorDiv(micros, MICROS_PER_DAY);
      microsOfDay = Math.floorMod(micros, MICROS_PER_DAY);
    }
    return switch (function) {
      case DATE -> Math.toIntExact(day);
      case YEAR -> LocalDate.ofEpochDay(day).getYear();
      case MONTH -> LocalDate.ofEpochDay(day).getMonthValue();
      case DAY -> LocalDate.ofEpochDay(day).getDayOfMonth();
      case HOUR -> (int) (microsOfDay / MICROS_PER_HOUR);
    };
  }

  private static String identifier(String token) {
    return token.startsWith("`") ? token.substring(1, token.length() - 1).replace("``", "`") : token;
  }
}
