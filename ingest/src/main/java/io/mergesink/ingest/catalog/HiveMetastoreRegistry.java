package io.mergesink.ingest.catalog;

import io.mergesink.ingest.config.CatalogOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hive.metastore.api.AlreadyExistsException;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers Delta tables in a Hive Metastore through its Thrift API ({@code catalog.type=hive};
 * entries as {@link HiveTables} shapes them): looks the entry up, creates it when missing (a
 * concurrent creator's entry is compared, not overwritten), updates it when the schema or
 * partitioning differs, and leaves an entry of another table (another provider or location) alone.
 *
 * <p>A table whose entry matches is not looked up again until it changes, so a steady table costs
 * the metastore nothing. A failure (metastore down, database missing, request refused) is logged;
 * the table stays unregistered and is tried again after a later commit, at most every
 * {@link #RETRY_PAUSE} (30 s), so that a metastore that is down slows commits by at most one
 * timeout per pause.
 */
final class HiveMetastoreRegistry implements TableRegistry {
  static final Duration RETRY_PAUSE = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(HiveMetastoreRegistry.class);

  private final CatalogOptions options;
  private final Duration retryPause;
  /** The table each entry was last found or made to match (or found to belong to another table), by table name. */
  private final Map<String, CatalogTable> settled = new HashMap<>();
  private TTransport transport;
  private ThriftHiveMetastore.Client client;
  private long pausedUntilNanos;
  private boolean paused;

  HiveMetastoreRegistry(CatalogOptions options) {
    this(options, RETRY_PAUSE);
  }

  /** A registry that tries again after a failure once {@code retryPause} has passed. */
  HiveMetastoreRegistry(CatalogOptions options, Duration retryPause) {
    this.options = options;
    this.retryPause = retryPause;
  }

  @Override
  public void committed(CatalogTable table) {
    if (table.equals(settled.get(table.table())) || (paused && System.nanoTime() - pausedUntilNanos < 0)) {
      return;
    }
    try {
      register(table);
      settled.put(table.table(), table);
      paused = false;
    } catch (TException | RuntimeException e) {
      disconnect();
      paused = true;
      pausedUntilNanos = System.nanoTime() + retryPause.toNanos();
      LOG.warn("Could not register table {} as {}.{} in the Hive Metastore at {}; the table is committed, its registration is "
          + "tried again after a later commit (in {} s at the earliest): {}", table.table(), options.database(),
          table.catalogName(), options.uri(), retryPause.toSeconds(), e.toString());
    }
  }

  private void register(CatalogTable table) throws TException {
    ThriftHiveMetastore.Client metastore = connected();
    String database = options.database();
    String name = table.catalogName();
    Optional<Table> existing = find(metastore, database, name);
    if (existing.isEmpty()) {
      try {
        metastore.create_table(HiveTables.entry(database, table));
        LOG.info("Registered table {} in the Hive Metastore at {} as {}.{} (provider delta, location {})", table.table(),
            options.uri(), database, name, table.location());
        return;
      } catch (AlreadyExistsException e) {
        // another task registered it between the lookup and the create: compare with its entry
        existing = find(metastore, database, name);
        if (existing.isEmpty()) {
          throw e;
        }
      }
    }
    Table entry = existing.get();
    if (!HiveTables.isEntryOf(entry, table)) {
      LOG.warn("The Hive Metastore at {} has {}.{} for another table (provider {}, location {}), not the Delta table {} at {}:"
          + " left as it is", options.uri(), database, name, entry.getParameters() == null ? null
          : entry.getParameters().get(HiveTables.PROVIDER), entry.getSd() == null ? null : entry.getSd().getLocation(),
          table.table(), table.location());
      return;
    }
    if (!HiveTables.matches(entry, table)) {
      metastore.alter_table(database, name, HiveTables.updated(entry, table));
      LOG.info("Updated the schema and partitioning of {}.{} in the Hive Metastore at {} to those of table {}", database, name,
          options.uri(), table.table());
    }
  }

  private static Optional<Table> find(ThriftHiveMetastore.Client metastore, String database, String name) throws TException {
    try {
      return Optional.of(metastore.get_table_req(new GetTableRequest(database, name)).getTable());
    } catch (NoSuchObjectException e) {
      return Optional.empty();
    }
  }

  private ThriftHiveMetastore.Client connected() throws TException {
    if (client == null) {
      int timeoutMillis = Math.toIntExact(options.timeout().toMillis());
      TTransport opened = new TSocket(options.uri().getHost(), options.uri().getPort(), timeoutMillis);
      opened.open();
      transport = opened;
      client = new ThriftHiveMetastore.Client(new TBinaryProtocol(transport));
    }
    return client;
  }

  private void disconnect() {
    if (transport != null) {
      transport.close();
    }
    transport = null;
    client = null;
  }

  @Override
  public void close() {
    disconnect();
  }
}
