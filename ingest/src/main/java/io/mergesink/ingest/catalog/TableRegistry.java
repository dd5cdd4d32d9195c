package io.mergesink.ingest.catalog;

import io.mergesink.ingest.config.CatalogOptions;

/**
 * Where tables are registered by name after commits ({@code catalog.type}). Single-threaded, like
 * the engine that calls it.
 */
public interface TableRegistry extends AutoCloseable {
  /** Registers nothing. */
  TableRegistry NONE = new TableRegistry() {
    @Override
    public void committed(CatalogTable table) {}

    @Override
    public void close() {}
  };

  /**
   * Makes the catalog's entry of {@code table}, just committed, match it: created when missing,
   * updated when its schema or partitioning differs. Never throws: a failure is logged, and the
   * registration is tried again after the table's next commit.
   */
  void committed(CatalogTable table);

  /** Releases the connection to the catalog. */
  @Override
  void close();

  /** The registry {@code options} configure. */
  static TableRegistry of(CatalogOptions options) {
    return switch (options.type()) {
      case NONE -> NONE;
      case HIVE -> new HiveMetastoreRegistry(options);
    };
  }
}
