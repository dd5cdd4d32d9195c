/**
 * The MergeSink Kafka Connect plugin: {@link io.mergesink.connect.MergeSinkConnector} and its
 * task, a thin front end of the ingest engine, and {@link io.mergesink.connect.WholeTopicAssignor}, a
 * consumer assignor that keeps each topic in one task. Sub-packages: {@code config} (options and
 * validation), {@code sink} (records, bad records, metrics of the task), {@code metrics} (where the
 * metrics are registered), {@code json} (the JSON converter), {@code compat} (which workers the
 * plugin runs on).
 */
package io.mergesink.connect;
