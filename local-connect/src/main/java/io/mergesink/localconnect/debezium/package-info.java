/**
 * Debezium PostgreSQL change events built in memory: {@link io.mergesink.localconnect.debezium.DebeziumTable}
 * makes the schemas and envelopes of one table as the connector names and shapes them, and
 * {@link io.mergesink.localconnect.debezium.CustomerEvents} is the {@code customers} table the tests
 * and examples stream.
 */
package io.mergesink.localconnect.debezium;
