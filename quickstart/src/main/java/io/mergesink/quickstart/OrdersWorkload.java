package io.mergesink.quickstart;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The demo's workload on {@code public.orders}: a first batch of orders (the source's initial
 * snapshot), then rounds of new orders, status changes and cancellations (deletes). Deterministic
 * for a seed; keeps the table it expects, so updates and deletes always hit live rows.
 */
final class OrdersWorkload {
  /** Orders that exist before the sink starts: Debezium reads them in its initial snapshot. */
  static final int INITIAL_ORDERS = 20;
  private static final int MAX_INSERTS_PER_ROUND = 6;
  private static final int MAX_UPDATES_PER_ROUND = 5;
  private static final int MAX_DELETES_PER_ROUND = 2;
  private static final int MAX_QUANTITY = 9;
  private static final int MAX_UNIT_PRICE_CENTS = 5_000;
  private static final List<String> CUSTOMERS =
      List.of("ada", "grace", "linus", "barbara", "edsger", "margaret", "ken", "frances", "donald", "radia");
  /** The order lifecycle: an update moves an order one step on; the last step stays. */
  private static final List<String> STATUSES = List.of("new", "paid", "packed", "shipped", "delivered");
  private static final LocalDate FIRST_DAY = LocalDate.of(2026, 1, 5);
  private static final Instant START = Instant.parse("2026-01-05T09:00:00Z");
  private static final Duration TICK = Duration.ofSeconds(37).plusNanos(123_456_000);

  private final Random random;
  private final Map<Integer, Order> orders = new TreeMap<>();
  private int nextId = 1;
  private Instant clock = START;

  OrdersWorkload(long seed) {
    this.random = new Random(seed);
  }

  /** What one round changed. */
  record RoundCounts(int inserted, int updated, int deleted) {}

  /** The orders that exist before streaming starts; the caller writes them to the source. */
  List<Order> initialOrders() {
    List<Order> initial = new ArrayList<>();
    for (int i = 0; i < INITIAL_ORDERS; i++) {
      initial.add(newOrder());
    }
    return initial;
  }

  /** Applies one round of changes to {@code source}: inserts, then updates, then deletes. */
  RoundCounts round(ChangeSource source) {
    int inserts = 1 + random.nextInt(MAX_INSERTS_PER_ROUND);
    for (int i = 0; i < inserts; i++) {
      source.insert(newOrder());
    }
    int updates = Math.min(orders.size(), random.nextInt(MAX_UPDATES_PER_ROUND + 1));
    for (int i = 0; i < updates; i++) {
      Order order = pick();
      int step = Math.min(STATUSES.indexOf(order.status()) + 1, STATUSES.size() - 1);
      Order updated = order.withStatus(STATUSES.get(step), tick());
      orders.put(updated.id(), updated);
      source.update(updated);
    }
    int deletes = Math.min(orders.size(), random.nextInt(MAX_DELETES_PER_ROUND + 1));
    for (int i = 0; i < deletes; i++) {
      Order order = pick();
      orders.remove(order.id());
      source.delete(order.id());
    }
    return new RoundCounts(inserts, updates, deletes);
  }

  /** How many orders the source holds now. */
  int liveOrders() {
    return orders.size();
  }

  private Order newOrder() {
    int quantity = 1 + random.nextInt(MAX_QUANTITY);
    BigDecimal amount = BigDecimal.valueOf((long) quantity * (1 + random.nextInt(MAX_UNIT_PRICE_CENTS)), Order.AMOUNT_SCALE);
    Instant at = tick();
    Order order = new Order(nextId++, CUSTOMERS.get(random.nextInt(CUSTOMERS.size())), STATUSES.get(0), quantity,
        amount, FIRST_DAY.plusDays(Duration.between(START, at).toDays()), at);
    orders.put(order.id(), order);
    return order;
  }

  private Order pick() {
    List<Integer> ids = new ArrayList<>(orders.keySet());
    return orders.get(ids.get(random.nextInt(ids.size())));
  }

  private Instant tick() {
    clock = clock.plus(TICK);
    return clock;
  }
}
