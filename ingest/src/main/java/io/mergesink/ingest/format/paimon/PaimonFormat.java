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
import org.apache.paimon.catalog.AbstractCatalog;
import org.apache.paimon.catalog.CachingCatalog;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.DelegateCatalog;
import org.apache.paimon.catalog.FileSystemCatalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paimon tables in a filesystem catalog, or in Paimon's Hive catalog, which registers them in a Hive
 * Metastore as well (docs/paimon.md, "Catalogs"): a table name {@code d/t} is table
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
  /** Paimon's Hive catalog (in paimon-bundle): tables in the warehouse, registered in a Hive Metastore by name. */
  private static final String HIVE = "hive";
  /** Paimon's option of the Hive Metastore's Thrift URI. */
  private static final String URI = "uri";
  private static final String THRIFT = "thrift://";
  private static final String CACHE_ENABLED = "cache-enabled";
  /** Whether Paimon's Hive catalog lists and loads the metastore's plain Hive tables (CSV, Parquet, ORC) as format tables. */
  private static final String FORMAT_TABLE_ENABLED = "format-table.enabled";
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
  /** {@code filesystem} or {@code hive}. */
  private final String metastore;
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
    checkMetastore(catalogOptions, objectStore);
    this.metastore = catalogOptions.get(METASTORE);
    if (HIVE.equals(metastore)) {
      // the metastore's other tables are no tables of the sink: listed, they would be opened at every start
      catalogOptions.putIfAbsent(FORMAT_TABLE_ENABLED, "false");
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
   * The catalogs tables are written through: the filesystem catalog anywhere, Paimon's Hive catalog
   * with a Thrift URI and a warehouse on local disk or HDFS (on an object store Paimon's Hive catalog
   * would reach the files through its own file IO, not the sink's put-if-absent storage, and lock
   * each commit in the metastore).
   *
   * @throws FatalIngestException another metastore, or a Hive catalog without a Thrift URI or on an object store
   */
  private static void checkMetastore(Map<String, String> catalogOptions, boolean objectStore) {
    String metastore = catalogOptions.get(METASTORE);
    if (!FILESYSTEM.equals(metastore) && !HIVE.equals(metastore)) {
      throw new FatalIngestException("paimon.catalog.metastore=" + metastore + " is not supported with table.format=paimon:"
          + " the filesystem and hive catalogs are (docs/paimon.md, \"Catalogs\")", null);
    }
    if (HIVE.equals(metastore) && objectStore) {
      throw new FatalIngestException("paimon.catalog.metastore=hive is supported with a warehouse on local disk or HDFS, not on "
          + catalogOptions.get(WAREHOUSE) + " (docs/paimon.md, \"Catalogs\")", null);
    }
    String uri = catalogOptions.get(URI);
    if (HIVE.equals(metastore) && (uri == null || !uri.startsWith(THRIFT))) {
      throw new FatalIngestException("paimon.catalog.metastore=hive needs the Hive Metastore's " + THRIFT + "host:port in"
          + " paimon.catalog.uri, found " + uri + " (docs/paimon.md, \"Catalogs\")", null);
    }
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
    for (String database : databases()) {
      try {
        for (String table : catalog.listTables(database)) {
          found.add(database.equals(options.paimon().defaultDatabase()) && !nested() ? table : database + "/" + table);
        }
      } catch (Catalog.DatabaseNotExistException e) {
        // dropped while listing, or not created yet: no tables
      }
    }
    return found;
  }

  /**
   * The databases the sink's tables are in: those of the catalog, but only
   * {@code paimon.tables.default-database} of a Hive catalog whose table names have no directory.
   * A metastore holds every database of its site, whose tables are not the sink's: listed, each
   * would be opened and its positions read at every start.
   */
  private List<String> databases() {
    return HIVE.equals(metastore) && !nested() ? List.of(options.paimon().defaultDatabase()) : catalog.listDatabases();
  }

  @Override
  public Optional<FormatTable> open(String name, List<String> writerKey, Collection<KafkaPartition> partitions) {
    Identifier identifier = identifier(name);
    try {
      Table table = catalog.getTable(identifier);
      if (!(table instanceof FileStoreTable)) {
        throw new FatalIngestException("table " + identifier.getFullName() + " of the Paimon catalog is a "
            + table.getClass().getSimpleName() + ", not a Paimon table the sink writes (docs/paimon.md, \"Catalogs\")", null);
      }
      return Optional.of(open(table, identifier, writerKey));
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
  public FormatTable create(String name, NewTable spec, List<String> writerKey, Collection<KafkaPartition> partitions)
      throws IOException {
    Identifier identifier = identifier(name);
    try {
      createDatabaseUnlessCreated(identifier.getDatabaseName());
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
   * Creates the database unless another writer created it first: the Hive catalog says so with the
   * metastore's refusal (wrapped) rather than {@link Catalog.DatabaseAlreadyExistException}.
   */
  private void createDatabaseUnlessCreated(String database) throws Catalog.DatabaseAlreadyExistException {
    try {
      catalog.createDatabase(database, true);
    } catch (RuntimeException e) {
      try {
        catalog.getDatabase(database);
      } catch (Catalog.DatabaseNotExistException notCreated) {
        throw e;
      }
    }
  }

  /**
   * Creates the table unless another writer created it first. A catalog without lock notices a
   * writer that created the table meanwhile only when it writes the first schema file, and says so
   * with an {@link IllegalStateException} (wrapped) rather than
   * {@link Catalog.TableAlreadyExistException}: then the table exists, and is opened as it is. The
   * Hive catalog registers a table in the metastore after writing its first schema, so the writer
   * that lost the schema may find no table yet: that is a storage failure the record is retried on.
   *
   * @throws IOException the table is neither created nor in the Hive catalog yet
   */
  private void createUnlessCreated(Identifier identifier, Schema schema) throws Catalog.TableAlreadyExistException,
      Catalog.DatabaseNotExistException, IOException {
    try {
      catalog.createTable(identifier, schema, true);
    } catch (RuntimeException e) {
      try {
        catalog.getTable(identifier);
        LOG.info("Paimon table {} was created by another writer meanwhile", identifier);
      } catch (Catalog.TableNotExistException notCreated) {
        if (HIVE.equals(metastore) && hasSchema(identifier)) {
          throw new IOException("cannot create Paimon table " + identifier.getFullName() + " in the Hive catalog yet (another"
              + " writer wrote its schema and is registering it): " + e.getMessage(), e);
        }
        throw e;
      }
    }
  }

  /** Whether the files of table {@code identifier} where its catalog puts it hold a schema (a table, registered or not). */
  private boolean hasSchema(Identifier identifier) throws IOException {
    AbstractCatalog root = (AbstractCatalog) DelegateCatalog.rootCatalog(catalog);
    Path location = root.getTableLocation(identifier);
    try {
      return new SchemaManager(root.fileIO(), location).latest().isPresent();
    } catch (UncheckedIOException e) {
      throw e.getCause();
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
