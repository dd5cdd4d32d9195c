/**
 * The connector's configuration: the engine's options ({@link io.mergesink.ingest.config}) with what only
 * Connect gives ({@link io.mergesink.connect.config.MergeSinkConfig}), the cross-field checks the Connect
 * REST {@code validate} endpoint reports ({@link io.mergesink.connect.config.ConfigValidation}), and the
 * Markdown reference generator ({@link io.mergesink.connect.config.ConfigDocs}).
 */
package io.mergesink.connect.config;
