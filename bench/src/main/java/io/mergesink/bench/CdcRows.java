package io.mergesink.bench;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.math.BigDecimal;
import java.util.List;

/**
 * Rows of a typical CDC table: a BIGINT key and four payload columns. Values are a pure function
 * of (key, revision), so two runs write the same bytes.
 */
public final class CdcRows {
  public static final String KEY_COLUMN = "id";
  public static final List<String> KEY = List.of(KEY_COLUMN);
  public static final StructType SCHEMA = StructType.of(
      new StructField(KEY_COLUMN, PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true),
      new StructField("amount", new DecimalType(12, 2), true),
      new StructField("updated_at", PrimitiveType.TIMESTAMP, true),
      new StructField("quantity", PrimitiveType.INTEGER, true));

  /** 2024-01-01T00:00:00Z in microseconds since the epoch. */
  private static final long BASE_MICROS = 1_704_067_200_000_000L;
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final int AMOUNT_SCALE = 2;
  private static final long AMOUNT_UNSCALED_BOUND = 10_000_000_000L;
  private static final int QUANTITY_BOUND = 1_000;
  private static final String NAME_PREFIX = "customer-";
  private static final int NAME_DIGITS = 11;
  private static final String ZEROS = "0".repeat(NAME_DIGITS);
  private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

  private CdcRows() {}

  /** The row of {@code key} as of {@code revision}; the name is 20 characters for keys below 10^11. */
  public static Row row(long key, int revision) {
    long mixed = (key * MIX) ^ revision;
    return Row.of(
        key,
        name(key),
        BigDecimal.valueOf(Math.floorMod(mixed, AMOUNT_UNSCALED_BOUND), AMOUNT_SCALE),
        BASE_MICROS + revision * MICROS_PER_SECOND + Math.floorMod(key, MICROS_PER_SECOND),
        (int) Math.floorMod(mixed >>> 7, QUANTITY_BOUND));
  }

  /** {@code customer-} and the key zero-padded to 11 digits, without {@code String.format}'s cost per row. */
  private static String name(long key) {
    String digits = Long.toString(key);
    return NAME_PREFIX + ZEROS.substring(Math.min(digits.length(), NAME_DIGITS)) + digits;
  }

  public static Row key(long key) {
    return Row.of(key);
  }
}
