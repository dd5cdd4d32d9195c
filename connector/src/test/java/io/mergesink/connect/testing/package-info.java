/**
 * Test harnesses for integration and end-to-end tests: {@link io.mergesink.localpg.LocalPostgres}
 * (a throwaway PostgreSQL server with logical decoding) and
 * {@link io.mergesink.connect.testing.ConnectHarness} (a KRaft broker and Connect workers in the
 * test JVM, around Kafka's {@code EmbeddedConnectCluster}). Real servers, no mocks; every wait
 * polls a condition with a timeout ({@link io.mergesink.connect.testing.Await}).
 */
package io.mergesink.connect.testing;
