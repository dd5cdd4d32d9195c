package io.mergesink.ingest.table;

import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.route.TableRouter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables under {@code table.root}, by their path relative to it: finds existing ones, creates
 * new ones from the first record that needs them, and keeps one {@link TableSink} per table.
 */
public final class TableCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(TableCatalog.class);
  private static final String LOG_DIR = "_delta_log";

  private final Storage storage;
  private final IngestOptions options;
  private final TableKind kind;
  private final Supplier<WriterOptions> writerOptions;
  private final int maxDepth;
  private final Map<String, TableSink> sinks = new HashMap<>();

  /**
   * @param kind the kind of every table of the task (keyed, append or history), from {@code options.writeMode()}
   * @param writerOptions the options for writers opened from now on (they depend on the task's
   *     current partitions)
   */
  public TableCatalog(Storage storage, IngestOptions options, TableKind kind, Supplier<WriterOptions> writerOptions) {
    this.storage = storage;
    this.options = options;
    this.kind = kind;
    this.writerOptions = writerOptions;
    this.maxDepth = options.tableNameFormat().format().split("/", -1).length;
  }

  /** The names of all tables under the root, down to the depth {@code table.name.format} can produce. */
  public List<String> discover() throws IOException {
    List<String> found = new ArrayList<>();
    discover(options.tableRoot(), "", 1, found);
    return found;
  }

  private void discover(String directory, String prefix, int depth, List<String> found) throws IOException {
    for (String child : storage.listDirectories(directory)) {
      String name = child.substring(child.lastIndexOf('/') + 1);
      if (name.equals(LOG_DIR) || name.startsWith(".") || name.startsWith("_")) {
        continue;
      }
      String table = prefix.isEmpty() ? name : prefix + "/" + name;
      if (isTable(path(table))) {
        found.add(table);
      } else if (depth < maxDepth) {
        discover(child, table, depth + 1, found);
      }
    }
  }

  /**
   * Whether {@code root} holds a Delta log: its first commit or {@code _last_checkpoint} (a cleaned-up
   * log keeps a checkpoint), else any file in {@code _delta_log}. Two lookups rather than a listing,
   * which on an object store would cost one request per 1,000 commits of history.
   */
  private boolean isTable(String root) throws IOException {
    return storage.exists(LogPaths.commitFile(root, 0)) || storage.exists(LogPaths.lastCheckpointFile(root))
        || !storage.listFrom(LogPaths.logDir(root), "").isEmpty();
  }

  /** The sink of an existing table, or null when there is no table of that name. */
  public TableSink existing(String table) throws IOException {
    TableSink sink = sinks.get(table);
    if (sink == null) {
      DeltaTable delta = DeltaTable.forPath(storage, path(table));
      if (!delta.exists()) {
        return null;
      }
      sink = open(table, delta, delta.snapshot());
    }
    return sink;
  }

  /**
   * The sink of the table {@code event} goes to, creating the table from the event's schema when it
   * does not exist yet; null when there is no table and the event cannot create one
   * ({@link TableKind#createsTable}).
   */
  public TableSink forEvent(String table, ChangeEvent event) throws IOException {
    TableSink sink = existing(table);
    if (sink != null || !kind.createsTable(event)) {
      return sink;
    }
    DeltaTable delta = DeltaTable.forPath(storage, path(table));
    Snapshot snapshot = delta.createIfAbsent(spec(event));
    LOG.info("Created table {} at {} with schema {}", table, delta.root(), snapshot.schema());
    return open(table, delta, snapshot);
  }

  /** Every open sink, for re-assignment. */
  public List<TableSink> open() {
    return new ArrayList<>(sinks.values());
  }

  /** Forgets the sink of a table that is gone (deleted by an operator while the task ran). */
  public void forget(String table) {
    sinks.remove(table);
  }

  /**
   * @throws UnsupportedTableException the table needs a feature MergeSink cannot honour: the task
   *     fails at once, naming table and feature, instead of at its first commit
   */
  private TableSink open(String table, DeltaTable delta, Snapshot opened) throws IOException {
    ProtocolSupport.checkWritable(delta.root(), opened.protocol(), opened.metadata());
    kind.checkKind(delta.root(), opened.metadata().configuration());
    Snapshot snapshot = opened;
    for (StructField own : kind.ownColumns()) {
      opened.schema().field(own.name()).filter(column -> !column.type().equals(own.type())).ifPresent(column -> {
        throw new FatalIngestException("table " + table + " has a column '" + own.name() + "' of type " + column.type() + ", but "
            + "upsert.order.by / delete.mode keep " + own.type() + " in it (rename the column, or drop it from the records, e.g. "
            + "ExtractNewRecordState's delete.handling.mode=rewrite adds a string '__deleted')", null);
      });
    }
    List<StructField> missing = kind.ownColumns().stream().filter(column -> opened.schema().indexOf(column.name()) < 0).toList();
    if (!missing.isEmpty()) {
      // the sink's own columns (upsert.order.by, delete.mode), whatever schema.evolution says
      snapshot = delta.addColumns(missing);
      LOG.info("Table {}: added column(s) {} for upsert.order.by / delete.mode at version {}", table,
          missing.stream().map(StructField::name).toList(), snapshot.version());
    }
    TableSink sink = new TableSink(table, storage, delta, snapshot, options.schemaEvolution(), options.primaryKeyFields(),
        kind, writerOptions.get());
    sinks.put(table, sink);
    return sink;
  }

  private TableSpec spec(ChangeEvent event) {
    List<String> key = kind.newTableKey(event, options.primaryKeyFields());
    Map<String, String> properties = new HashMap<>(options.tableProperties());
    properties.putAll(kind.newTableProperties());
    return new TableSpec(partitioned(kind.newTableSchema(event, key)), key, partitionColumns(), options.effectiveMergeStrategy(),
        properties);
  }

  /** {@code schema} with the computed partition columns of {@code partition.fields} appended, as generated columns. */
  private StructType partitioned(StructType schema) {
    StructType partitioned = schema;
    for (PartitionField field : options.partitionFields()) {
      if (field.expression().isPresent()) {
        if (schema.indexOf(field.column()) >= 0) {
          throw new IllegalArgumentException("partition.fields: computed partition column '" + field.column()
              + "' is also a column of the record " + schema.fieldNames());
        }
        partitioned = partitioned.add(GeneratedColumns.column(field.column(), field.expression().get(), schema));
      }
    }
    return partitioned;
  }

  private List<String> partitionColumns() {
    return options.partitionFields().stream().map(PartitionField::column).toList();
  }

  private String path(String table) {
    return TableRouter.resolve(options.tableRoot(), table);
  }
}
