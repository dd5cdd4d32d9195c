package io.mergesink.ingest.format.iceberg;

import io.mergesink.core.index.CurrentRowColumn;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.table.PrimaryKeyProperty;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.mergesink.ingest.errors.FatalIngestException;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Iceberg tables in a catalog (docs/iceberg.md): a table name {@code a/b/t} is table {@code t} in
 * namespace {@code a.b}, a name without a directory is in {@code iceberg.tables.default-namespace}.
 * Tables are created as format version 3 (deletion vectors) unless {@code table.properties.format-version}
 * says otherwise, with the primary key as their identifier fields (history tables, which hold
 * several rows per key, with none, and their key in the table property
 * {@link PrimaryKeyProperty#PROPERTY}), the partition spec of {@code partition.fields}, and
 * {@code merge.strategy} as their row-level operation modes ({@code write.merge.mode},
 * {@code write.update.mode}, {@code write.delete.mode}), which the sink follows as Spark does.
 */
public final class IcebergFormat implements TableFormat {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergFormat.class);
  private static final String DEFAULT_FORMAT_VERSION = "3";

  private final IngestOptions options;
  private final StorageFileIO storageIo;
  private final Catalog catalog;
  private final int maxDepth;
  private final IcebergFormatTable.Maintenance maintenance;

  /** @throws io.mergesink.ingest.errors.FatalIngestException the catalog cannot be opened */
  public IcebergFormat(IngestOptions options) {
    this.options = options;
    this.storageIo = new StorageFileIO(options.storage());
    this.catalog = IcebergCatalogs.open(options, storageIo);
    this.maxDepth = options.tableNameFormat().format().split("/", -1).length;
    this.maintenance = new IcebergFormatTable.Maintenance(options.compactionEnabled(), options.compactionDeletedRatio(),
        options.compactionMinSmallFiles(), options.fileTargetSizeBytes());
  }

  @Override
  public List<String> discover() {
    List<String> found = new ArrayList<>();
    if (catalog instanceof SupportsNamespaces namespaces) {
      discover(namespaces, Namespace.empty(), found);
    }
    return found;
  }

  private void discover(SupportsNamespaces namespaces, Namespace parent, List<String> found) {
    List<Namespace> children;
    try {
      children = namespaces.listNamespaces(parent);
    } catch (NoSuchNamespaceException e) {
      return; // a Hadoop catalog's warehouse directory does not exist until its first table: no tables yet
    }
    for (Namespace namespace : children) {
      for (TableIdentifier table : catalog.listTables(namespace)) {
        found.add(name(table));
      }
      if (namespace.length() < maxDepth - 1) {
        discover(namespaces, namespace, found);
      }
    }
  }

  @Override
  public Optional<FormatTable> open(String name, List<String> writerKey, Collection<KafkaPartition> partitions)
      throws IOException {
    try {
      TableIdentifier identifier = identifier(name);
      Table table = StorageFailures.<Table, RuntimeException>checked(() -> catalog.loadTable(identifier));
      return Optional.of(open(table, identifier, writerKey));
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
  }

  /**
   * The Iceberg table {@code name} itself, for tools that show what the seam does not (snapshots,
   * files, partition specs); empty when it does not exist.
   */
  public Optional<Table> table(String name) {
    try {
      return Optional.of(catalog.loadTable(identifier(name)));
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
  }

  @Override
  public FormatTable create(String name, NewTable spec, List<String> writerKey, Collection<KafkaPartition> partitions) {
    TableIdentifier identifier = identifier(name);
    if (catalog instanceof SupportsNamespaces namespaces && !namespaces.namespaceExists(identifier.namespace())) {
      try {
        namespaces.createNamespace(identifier.namespace());
      } catch (AlreadyExistsException e) {
        // another task created it
      }
    }
    Map<String, String> properties = new HashMap<>(spec.properties());
    properties.putIfAbsent(TableProperties.FORMAT_VERSION, DEFAULT_FORMAT_VERSION);
    properties.putIfAbsent(TableProperties.PARQUET_COMPRESSION, options.parquetCompression().configName());
    if (spec.writeKind() != WriteKind.APPEND) {
      String mode = rowLevelMode().modeName();
      properties.putIfAbsent(TableProperties.MERGE_MODE, mode);
      properties.putIfAbsent(TableProperties.UPDATE_MODE, mode);
      properties.putIfAbsent(TableProperties.DELETE_MODE, mode);
    }
    List<String> identifierFields = spec.keyColumns();
    if (CurrentRowColumn.of(spec.properties()).isPresent()) {
      // a history table holds several rows per key: no identifier fields, the key in a property
      properties.putAll(PrimaryKeyProperty.toProperty(spec.keyColumns()));
      identifierFields = List.of();
    }
    Table table;
    try {
      Schema schema = IcebergSchemas.toIceberg(spec.schema(), identifierFields);
      table = catalog.buildTable(identifier, schema).withPartitionSpec(partitionSpec(identifier, schema, spec))
          .withProperties(properties).create();
      LOG.info("Created Iceberg table {} at {} with schema {}", identifier, table.location(), table.schema());
    } catch (AlreadyExistsException e) {
      table = catalog.loadTable(identifier);
    }
    return open(table, identifier, writerKey);
  }

  private static PartitionSpec partitionSpec(TableIdentifier identifier, Schema schema, NewTable spec) {
    try {
      return IcebergSchemas.partitionSpec(schema, spec.partitionFields());
    } catch (IllegalArgumentException | ValidationException e) {
      throw new FatalIngestException("partition.fields " + spec.partitionFields() + " do not fit table " + identifier + ": "
          + e.getMessage(), e);
    }
  }

  private FormatTable open(Table table, TableIdentifier identifier, List<String> writerKey) {
    WriteKind writeKind = options.writeMode() == WriteMode.APPEND ? WriteKind.APPEND : WriteKind.BY_KEY;
    return new IcebergFormatTable(table, () -> catalog.loadTable(identifier), maintenance, writeKind, writerKey, rowLevelMode());
  }

  /** {@code merge.strategy} in Iceberg's terms, which other engines' row-level operations follow too. */
  private RowLevelOperationMode rowLevelMode() {
    return options.mergeStrategy() == MergeStrategy.COPY_ON_WRITE ? RowLevelOperationMode.COPY_ON_WRITE
        : RowLevelOperationMode.MERGE_ON_READ;
  }

  /**
   * The requests of the tables' files on an object store, which go through the sink's storage; none
   * on a Hadoop file system, whose file IO is Iceberg's, nor of another {@code io-impl} (docs/iceberg.md, "Storage").
   */
  @Override
  public RequestCounts requests() {
    return storageIo.requests();
  }

  @Override
  public void close() {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        LOG.warn("Closing the Iceberg catalog failed", e);
      }
    }
    storageIo.close();
  }

  private TableIdentifier identifier(String name) {
    String[] parts = name.split("/");
    Namespace namespace = parts.length == 1 ? Namespace.of(options.iceberg().defaultNamespace())
        : Namespace.of(Arrays.copyOf(parts, parts.length - 1));
    return TableIdentifier.of(namespace, parts[parts.length - 1]);
  }

  private String name(TableIdentifier table) {
    Namespace namespace = table.namespace();
    if (namespace.length() == 1 && namespace.level(0).equals(options.iceberg().defaultNamespace()) && maxDepth == 1) {
      return table.name();
    }
    return String.join("/", namespace.levels()) + "/" + table.name();
  }
}
