package io.mergesink.quickstart;

import io.mergesink.localconnect.LocalConnect;
import java.util.List;

/**
 * Where the demo's change events come from: PostgreSQL with Debezium ({@link PostgresSource}) or a
 * bundled Debezium-shaped stream ({@link BundledSource}). Either way they land in {@link #topic()}
 * as Debezium's PostgreSQL connector writes them (JSON with schemas), one event per insert or
 * update and two per delete (the delete and its tombstone).
 *
 * <p>The demo owns the source and closes it after the Connect worker stopped.
 */
interface ChangeSource extends AutoCloseable {
  /** The topic the change events land in. */
  String TOPIC = "shop.public.orders";
  /** Events a delete produces: the delete event and the tombstone after it. */
  int EVENTS_PER_DELETE = 2;

  /** What the source is, for the console ("PostgreSQL 15 + Debezium"). */
  String description();

  default String topic() {
    return TOPIC;
  }

  /**
   * Creates the source table holding {@code initial}, and starts producing change events for it
   * into {@link #topic()} (for PostgreSQL: starts Debezium, whose snapshot reads those rows).
   */
  void start(LocalConnect connect, List<Order> initial);

  void insert(Order order);

  void update(Order order);

  void delete(int id);

  /** Makes every change so far visible in the topic (the bundled producer flushes). */
  void flush();

  /** How many change events the topic must hold once every change so far arrived. */
  long expectedEvents();

  /** How many rows the source table holds now (for PostgreSQL: {@code SELECT count(*)}). */
  long sourceRows();

  /** Where the source's rows can be counted, for the summary ("PostgreSQL table shop.public.orders"). */
  String sourceTableName();

  @Override
  void close();
}
