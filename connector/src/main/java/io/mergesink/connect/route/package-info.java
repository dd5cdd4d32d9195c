/**
 * Routing change events to tables: {@link io.mergesink.connect.route.TableNameTemplate} parses
 * {@code table.name.format}, {@link io.mergesink.connect.route.TableRouter} substitutes a record's
 * topic and Debezium source coordinates, sanitised so that a table path never escapes
 * {@code table.root}.
 */
package io.mergesink.connect.route;
