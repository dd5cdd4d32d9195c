/**
 * A throwaway Kafka cluster (one KRaft broker) and Connect workers in this JVM, for the
 * quickstart, the tests and the benchmarks.
 */
package io.mergesink.localconnect;
