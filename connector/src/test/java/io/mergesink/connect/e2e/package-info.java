/**
 * End-to-end integration tests with real Debezium: a throwaway PostgreSQL
 * ({@link io.mergesink.localpg.LocalPostgres}), Debezium's PostgreSQL connector (pgoutput) and
 * MergeSink in one embedded Connect cluster, both configured from the deploy files in {@code config/}.
 * After the sink has caught up, every Delta table read by Delta Kernel must equal its PostgreSQL
 * table, each column converted to the sink's in-memory representation ({@link
 * io.mergesink.connect.e2e.SinkRepresentation}).
 */
package io.mergesink.connect.e2e;
