package io.mergesink.ingest.format.paimon;

import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.types.StructField;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.CachingCatalog;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.FileSystemCatalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paimon tables in a filesystem catalog (docs/paimon.md): a table name {@code d/t} is table
 * {@code t} in database {@code d}, a name without a directory is in
 * {@code paimon.tables.default-database}. Upsert tables are created as primary-key tables keyed by
 * the record key, with {@code paimon.bucket} fixed buckets, deletion vectors and the
 * {@code deduplicate} merge engine unless {@code table.properties.*} say otherwise (under
 * {@code merge-engine=partial-update} deletes remove the row unless the properties say how Paimon
 * takes them); append tables
 * as tables without a primary key. {@code table.properties.*} are Paimon table options.
 */
public final class PaimonFormat implements TableFormat {
  private static final Logger LOG = LoggerFactory.getLogger(PaimonFormat.class);
  /** Paimon's option of the catalog's root. */
  private static final String WAREHOUSE = "warehouse";
  private static final String METASTORE = "metastore";
  private static final String FILESYSTEM = "filesystem";
  private static final String CACHE_ENABLED = "cache-enabled";
  /** Primary-key table options MergeSink sets unless the table properties do (docs/paimon.md, "Tables"). */
  private static final String BUCKET = "bucket";
  private static final String MERGE_ENGINE = CoreOptions.MERGE_ENGINE.key();
  private static final String PARTIAL_UPDATE = CoreOptions.MergeEngine.PARTIAL_UPDATE.toString();
  private static final String REMOVE_RECORD_ON_DELETE = CoreOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key();
  private static final String IGNORE_DELETE = CoreOptions.IGNORE_DELETE.key();
  private static final Map<String, String> PRIMARY_KEY_TABLE_DEFAULTS = Map.of("deletion-vectors.enabled", "true",
      MERGE_ENGINE, "deduplicate");

  private final IngestOptions options;
  private final Catalog catalog;
  /** The file IO of a catalog on an object store, whose requests are counted; null on local disk and HDFS (Paimon's own). */
  private final StorageFileIO fileIO;
  private final String warehouse;
  private final String spillDirectory;

  /** @throws FatalIngestException the catalog cannot be opened, or its warehouse is on a storage Paimon is not written on here */
  public PaimonFormat(IngestOptions options) {
    this.options = options;
    Map<String, String> catalogOptions = new HashMap<>(options.paimon().catalogOptions());
    catalogOptions.putIfAbsent(WAREHOUSE, options.tableRoot());
    catalogOptions.putIfAbsent(METASTORE, FILESYSTEM);
    // a cached table keeps the schema it was loaded with, and other tasks change it
    catalogOptions.putIfAbsent(CACHE_ENABLED, "false");
    this.warehouse = catalogOptions.get(WAREHOUSE);
    boolean objectStore = StorageFileIO.serves(warehouse);
    if (!objectStore && !Storages.onHadoopFileSystem(warehouse)) {
      throw new FatalIngestException("Paimon tables are written on local disk, HDFS, S3 and Azure (table.format=paimon), not on "
          + warehouse + " (docs/paimon.md)", null);
    }
    if (!FILESYSTEM.equals(catalogOptions.get(METASTORE))) {
      throw new FatalIngestException("paimon.catalog.metastore=" + catalogOptions.get(METASTORE) + " is not supported with"
          + " table.format=paimon: only the filesystem catalog is (docs/paimon.md)", null);
    }
    Configuration hadoopConf = new Configuration();
    options.storage().hadoop().forEach(hadoopConf::set);
    CatalogContext context = CatalogContext.create(Options.fromMap(catalogOptions), hadoopConf);
    try {
      this.fileIO = objectStore ? new StorageFileIO(options.storage()) : null;
      this.catalog = objectStore ? onStorage(fileIO, warehouse, context) : CatalogFactory.createCatalog(context);
    } catch (RuntimeException e) {
      throw new FatalIngestException("cannot open the Paimon catalog on " + warehouse + ": " + e.getMessage(), e);
    }
    this.spillDirectory = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "mergesink-paimon").toString();
  }

  /**
   * A filesystem catalog whose files are reached through the sink's storage: Paimon's snapshot and
   * schema commits are then the storage's put-if-absent, which needs no catalog lock. The catalog is
   * wrapped as {@link CatalogFactory} wraps the catalogs it creates (a table cache).
   */
  private static Catalog onStorage(StorageFileIO fileIO, String warehouse, CatalogContext context) {
    Path root = new Path(warehouse);
    try {
      fileIO.checkOrMkdirs(root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the warehouse " + warehouse, e);
    }
    return CachingCatalog.tryToCreate(new FileSystemCatalog(fileIO, root, context), context.options());
  }

  @Override
  public List<String> discover() {
    List<String> found = new ArrayList<>();
    for (String database : catalog.listDatabases()) {
      try {
        for (String table : catalog.listTables(database)) {
          found.add(database.equals(options.paimon().defaultDatabase()) && !nested() ? table : database + "/" + table);
        }
      } catch (Catalog.DatabaseNotExistException e) {
        // dropped while listing: no tables
      }
    }
    return found;
  }

  @Override
  public Optional<FormatTable> open(String name, List<String> writerKey, Collection<KafkaPartition> partitions) {
    Identifier identifier = identifier(name);
    try {
      return Optional.of(open(catalog.getTable(identifier), identifier, writerKey));
    } catch (Catalog.TableNotExistException e) {
      return Optional.empty();
    }
  }

  /** The Paimon table {@code name} itself, for tools that show what the seam does not (snapshots, buckets); empty when it does not exist. */
  public Optional<FileStoreTable> table(String name) {
    try {
      return Optional.of((FileStoreTable) catalog.getTable(identifier(name)));
    } catch (Catalog.TableNotExistException e) {
      return Optional.empty();
    }
  }

  @Override
  public FormatTable create(String name, NewTable spec, List<String> writerKey, Collection<KafkaPartition> partitions) {
    Identifier identifier = identifier(name);
    try {
      catalog.createDatabase(identifier.getDatabaseName(), true);
      createUnlessCreated(identifier, schema(identifier, spec));
      Table table = catalog.getTable(identifier);
      LOG.info("Paimon table {} at {}: primary key {}, options {}", identifier, ((FileStoreTable) table).location(),
          table.primaryKeys(), table.options());
      return open(table, identifier, writerKey);
    } catch (Catalog.DatabaseAlreadyExistException | Catalog.TableAlreadyExistException | Catalog.DatabaseNotExistException
        | Catalog.TableNotExistException e) {
      throw new FatalIngestException("cannot create Paimon table " + identifier + ": " + e.getMessage(), e);
    }
  }

  /**
   * Creates the table unless another writer created it first. A filesystem catalog without lock
   * notices a writer that created the table meanwhile only when it writes the first schema file,
   * and says so with an {@link IllegalStateException} (wrapped) rather than
   * {@link Catalog.TableAlreadyExistException}: then the table exists, and is opened as it is.
   */
  private void createUnlessCreated(Identifier identifier, Schema schema) throws Catalog.TableAlreadyExistException,
      Catalog.DatabaseNotExistException {
    try {
      catalog.createTable(identifier, schema, true);
    } catch (RuntimeException e) {
      try {
        catalog.getTable(identifier);
        LOG.info("Paimon table {} was created by another writer meanwhile", identifier);
      } catch (Catalog.TableNotExistException notCreated) {
        throw e;
      }
    }
  }

  /**
   * The schema of a new table: the key columns NOT NULL (Paimon requires it of a primary key), every
   * other column nullable (a {@code -D} row carries its key only).
   *
   * @throws IllegalArgumentException a partition column outside the primary key, or a column of a type Paimon tables do not take
   */
  private Schema schema(Identifier identifier, NewTable spec) {
    List<String> partitionKeys = spec.partitionFields().stream().map(PartitionField::column).toList();
    boolean keyed = spec.writeKind() == WriteKind.BY_KEY && !spec.keyColumns().isEmpty();
    if (keyed && !spec.keyColumns().containsAll(partitionKeys)) {
      throw new IllegalArgumentException("partition.fields " + partitionKeys + " of Paimon table " + identifier + " must be columns of"
          + " its primary key " + spec.keyColumns() + ": Paimon keeps a key's rows in one partition");
    }
    Schema.Builder schema = Schema.newBuilder();
    for (StructField field : spec.schema().fields()) {
      boolean key = keyed && spec.keyColumns().contains(field.name());
      schema.column(field.name(), PaimonSchemas.toPaimon(field.name(), field.type(), !key));
    }
    Map<String, String> tableOptions = new HashMap<>();
    if (keyed) {
      schema.primaryKey(spec.keyColumns());
      tableOptions.put(BUCKET, Integer.toString(options.paimon().bucket()));
      tableOptions.putAll(PRIMARY_KEY_TABLE_DEFAULTS);
    }
    tableOptions.putAll(spec.properties());
    if (keyed && PARTIAL_UPDATE.equals(tableOptions.get(MERGE_ENGINE)) && !tableOptions.containsKey(IGNORE_DELETE)) {
      // deletes remove the row, as under deduplicate; Paimon's partial-update refuses them otherwise
      tableOptions.putIfAbsent(REMOVE_RECORD_ON_DELETE, "true");
    }
    return schema.partitionKeys(partitionKeys).options(tableOptions).build();
  }

  private FormatTable open(Table table, Identifier identifier, List<String> writerKey) {
    WriteKind writeKind = options.writeMode() == WriteMode.APPEND ? WriteKind.APPEND : WriteKind.BY_KEY;
    return new PaimonFormatTable(catalog, identifier, (FileStoreTable) table, writeKind, writerKey, options.txnAppId(), spillDirectory);
  }

  /** The requests to the warehouse's object store by kind; Paimon's own file IO (local disk, HDFS) does not count them. */
  @Override
  public RequestCounts requests() {
    return fileIO == null ? RequestCounts.ZERO : fileIO.requests(warehouse);
  }

  @Override
  public void close() {
    try {
      catalog.close();
    } catch (Exception e) {
      LOG.warn("Closing the Paimon catalog failed", e);
    }
    if (fileIO != null) {
      fileIO.close();
    }
  }

  /** Whether table names have a directory: the database. */
  private boolean nested() {
    return options.tableNameFormat().format().contains("/");
  }

  /** @throws IllegalArgumentException a name nested deeper than database/table */
  private Identifier identifier(String name) {
    String[] parts = name.split("/");
    if (parts.length > 2) {
      throw new IllegalArgumentException("table name " + name + " is nested deeper than database/table, which Paimon has");
    }
    return parts.length == 1 ? Identifier.create(options.paimon().defaultDatabase(), name) : Identifier.create(parts[0], parts[1]);
  }
}
