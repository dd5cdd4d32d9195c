package io.mergesink.quickstart;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * One row of the demo's {@code public.orders} table, as both sources hold it: PostgreSQL
 * ({@link PostgresSource#DDL}) and the bundled change stream ({@link OrderEvents}).
 *
 * @param amount {@code numeric(10,2)}: scale {@value #AMOUNT_SCALE}
 * @param updatedAt {@code timestamptz}, whole microseconds
 */
record Order(int id, String customer, String status, int quantity, BigDecimal amount, LocalDate placedOn,
    Instant updatedAt) {
  /** Scale of {@link #amount}, as in the column type {@code numeric(10,2)}. */
  static final int AMOUNT_SCALE = 2;
  /** Precision of {@link #amount}. */
  static final int AMOUNT_PRECISION = 10;

  Order withStatus(String newStatus, Instant at) {
    return new Order(id, customer, newStatus, quantity, amount, placedOn, at);
  }
}
