/**
 * The engine's options, owned here for every front end: names, types, defaults, validators,
 * importance, documentation and groups, one class per concern ({@link io.mergesink.ingest.config.TableOptions},
 * {@link io.mergesink.ingest.config.S3StoreOptions}, {@link io.mergesink.ingest.config.AzureStoreOptions},
 * {@link io.mergesink.ingest.config.WriteOptions},
 * {@link io.mergesink.ingest.config.DecodingOptions}, {@link io.mergesink.ingest.config.CommitOptions},
 * {@link io.mergesink.ingest.config.FileOptions}, {@link io.mergesink.ingest.config.PassThroughOptions}),
 * gathered in one {@code ConfigDef} by {@link io.mergesink.ingest.config.IngestConfig}, which parses a
 * configuration into the engine's {@link io.mergesink.ingest.config.IngestOptions}. The Kafka Connect
 * connector's configuration and the generated reference (docs/configuration.md) are built from them.
 */
package io.mergesink.ingest.config;
