/**
 * A throwaway Kafka cluster (one KRaft broker) and Connect workers in this JVM
 * ({@link io.mergesink.localconnect.LocalConnect}), for the quickstart, the tests and the
 * benchmarks; the metrics of their tasks ({@link io.mergesink.localconnect.ConnectMetrics}); a
 * producer of Debezium change streams that keeps the model of its source table
 * ({@link io.mergesink.localconnect.ChangeStream}); a Connect worker as a process of its own, of
 * any class path and heap ({@link io.mergesink.localconnect.WorkerProcess}), and its REST API
 * ({@link io.mergesink.localconnect.ConnectRest}). Real servers, no mocks; every wait polls a
 * condition with a timeout ({@link io.mergesink.localconnect.Await}).
 */
package io.mergesink.localconnect;
