/**
 * The MergeSink Kafka Connect plugin: {@link io.mergesink.connect.MergeSinkConnector} and its
 * task. Sub-packages: {@code config} (options and validation), {@code decode} (records → change
 * events), {@code route} (events → table paths), {@code buffer} (per-partition coalescing).
 */
package io.mergesink.connect;
