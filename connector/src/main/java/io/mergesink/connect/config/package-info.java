/**
 * The connector's configuration: every option users see (docs/configuration.md), with types, defaults,
 * validators, recommenders, documentation and groups ({@link io.mergesink.connect.config.MergeSinkConfig}),
 * the cross-field checks the Connect REST {@code validate} endpoint reports
 * ({@link io.mergesink.connect.config.ConfigValidation}), and the Markdown reference generator
 * ({@link io.mergesink.connect.config.ConfigDocs}).
 */
package io.mergesink.connect.config;
