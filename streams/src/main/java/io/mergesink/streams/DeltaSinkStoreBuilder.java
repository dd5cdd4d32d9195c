package io.mergesink.streams;

import io.mergesink.ingest.config.IngestOptions;
import java.util.Map;
import org.apache.kafka.streams.state.StoreBuilder;

/** Builds each task's {@link DeltaSinkStore}: no cache and no changelog (the tables are its state). */
final class DeltaSinkStoreBuilder implements StoreBuilder<DeltaSinkStore> {
  private final String name;
  private final IngestOptions options;

  DeltaSinkStoreBuilder(String name, IngestOptions options) {
    this.name = name;
    this.options = options;
  }

  @Override
  public StoreBuilder<DeltaSinkStore> withCachingEnabled() {
    throw new UnsupportedOperationException("store " + name + " has no cache: its records are buffered by the ingest engine");
  }

  @Override
  public StoreBuilder<DeltaSinkStore> withCachingDisabled() {
    return this;
  }

  @Override
  public StoreBuilder<DeltaSinkStore> withLoggingEnabled(Map<String, String> config) {
    throw new UnsupportedOperationException("store " + name + " has no changelog: its state is in the Delta tables");
  }

  @Override
  public StoreBuilder<DeltaSinkStore> withLoggingDisabled() {
    return this;
  }

  @Override
  public DeltaSinkStore build() {
    return new DeltaSinkStore(name, options);
  }

  @Override
  public Map<String, String> logConfig() {
    return Map.of();
  }

  @Override
  public boolean loggingEnabled() {
    return false;
  }

  @Override
  public String name() {
    return name;
  }
}
