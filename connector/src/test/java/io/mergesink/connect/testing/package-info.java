/**
 * What the connector's integration and end-to-end tests share beyond
 * {@link io.mergesink.localconnect.LocalConnect} and {@link io.mergesink.localpg.LocalPostgres}:
 * the sink's options for the test S3 server ({@link io.mergesink.connect.testing.S3SinkOptions}),
 * the database the deploy files' Debezium source reads
 * ({@link io.mergesink.connect.testing.SourceDatabase}) and workers that stop as if killed
 * ({@link io.mergesink.connect.testing.AbruptWorkers}).
 */
package io.mergesink.connect.testing;
