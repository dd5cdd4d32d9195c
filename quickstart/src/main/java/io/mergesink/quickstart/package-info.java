/**
 * The one-command demo ({@code ./quickstart.sh}): a KRaft broker and a Connect worker in one JVM,
 * PostgreSQL with Debezium when its server binaries are installed (otherwise a bundled
 * Debezium-shaped change stream), and the MergeSink connector writing a Delta, Iceberg or Paimon table under
 * a local directory, which stays when the demo ends. Entry point: {@link io.mergesink.quickstart.Quickstart}.
 *
 * <p>A launcher, not a library: it uses Kafka's embedded-cluster test jars at run time, which the
 * connector plugin never ships.
 */
package io.mergesink.quickstart;
