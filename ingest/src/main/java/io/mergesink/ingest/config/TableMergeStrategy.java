package io.mergesink.ingest.config;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.ingest.options.NamedOption;

/** {@code merge.strategy}: the keyed strategies of {@link MergeStrategy} users can choose. */
public enum TableMergeStrategy implements NamedOption {
  DELETION_VECTORS(MergeStrategy.DELETION_VECTORS),
  COPY_ON_WRITE(MergeStrategy.COPY_ON_WRITE);

  private final MergeStrategy strategy;

  TableMergeStrategy(MergeStrategy strategy) {
    this.strategy = strategy;
  }

  public MergeStrategy strategy() {
    return strategy;
  }

  @Override
  public String configName() {
    return strategy.configName();
  }
}
