/**
 * Routing change events to tables: {@link io.mergesink.ingest.route.TableNameTemplate} parses
 * {@code table.name.format}, {@link io.mergesink.ingest.route.TableRouter} substitutes a record's
 * topic and Debezium source coordinates, sanitised so that a table path never escapes
 * {@code table.root}.
 */
package io.mergesink.ingest.route;
