package io.mergesink.ingest.table;

import io.mergesink.core.protocol.UnsupportedTableException;
import io.mergesink.core.types.StructField;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables under {@code table.root}, by their path relative to it: finds existing ones, creates
 * new ones from the first record that needs them, and keeps one {@link TableSink} per table. The
 * {@link TableFormat} does the finding, opening and creating; this class what every format shares:
 * the table kind's schema, key and columns.
 *
 * <p>Thread-safe: the commits of a flush, on several threads, find their tables' sinks here.
 */
public final class TableCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(TableCatalog.class);

  private final TableFormat format;
  private final IngestOptions options;
  private final TableKind kind;
  private final Supplier<Collection<KafkaPartition>> partitions;
  private final Map<String, TableSink> sinks = new HashMap<>();

  /**
   * @param kind the kind of every table of the task (keyed, append or history), from {@code options.writeMode()}
   * @param partitions the task's current partitions, whose rows the writers opened from then on own
   */
  public TableCatalog(TableFormat format, IngestOptions options, TableKind kind, Supplier<Collection<KafkaPartition>> partitions) {
    this.format = format;
    this.options = options;
    this.kind = kind;
    this.partitions = partitions;
  }

  /** The names of all tables under the root, down to the depth {@code table.name.format} can produce. */
  public List<String> discover() throws IOException {
    return format.discover();
  }

  /** The sink of an existing table, or null when there is no table of that name. */
  public synchronized TableSink existing(String table) throws IOException {
    TableSink sink = sinks.get(table);
    if (sink == null) {
      Optional<FormatTable> opened = format.open(table, writerKey(), partitions.get());
      if (opened.isEmpty()) {
        return null;
      }
      sink = open(table, opened.get());
    }
    return sink;
  }

  /**
   * The sink of the table {@code event} goes to, creating the table from the event's schema when it
   * does not exist yet; null when there is no table and the event cannot create one
   * ({@link TableKind#createsTable}).
   */
  public synchronized TableSink forEvent(String table, ChangeEvent event) throws IOException {
    TableSink sink = existing(table);
    if (sink != null || !kind.createsTable(event)) {
      return sink;
    }
    return open(table, format.create(table, spec(event), writerKey(), partitions.get()));
  }

  /** Every open sink, for re-assignment. */
  public synchronized List<TableSink> open() {
    return new ArrayList<>(sinks.values());
  }

  /** Forgets the sink of a table that is gone (deleted by an operator while the task ran). */
  public synchronized void forget(String table) {
    sinks.remove(table);
  }

  /**
   * @throws UnsupportedTableException the table is of another kind: the task fails at once, naming
   *     table and kind, instead of at its first commit
   */
  private synchronized TableSink open(String name, FormatTable table) throws IOException {
    kind.checkKind(table.location(), table.properties());
    for (StructField own : kind.ownColumns()) {
      table.schema().field(own.name()).filter(column -> !column.type().equals(own.type())).ifPresent(column -> {
        throw new FatalIngestException("table " + name + " has a column '" + own.name() + "' of type " + column.type() + ", but "
            + "upsert.order.by / delete.mode keep " + own.type() + " in it (rename the column, or drop it from the records, e.g. "
            + "ExtractNewRecordState's delete.handling.mode=rewrite adds a string '__deleted')", null);
      });
    }
    List<StructField> missing = kind.ownColumns().stream().filter(column -> table.schema().indexOf(column.name()) < 0).toList();
    if (!missing.isEmpty()) {
      // the sink's own columns (upsert.order.by, delete.mode), whatever schema.evolution says
      table.addColumns(missing);
      LOG.info("Table {}: added column(s) {} for upsert.order.by / delete.mode at version {}", name,
          missing.stream().map(StructField::name).toList(), table.version());
    }
    TableSink sink = new TableSink(name, table, options.schemaEvolution(), options.primaryKeyFields(), kind);
    sinks.put(name, sink);
    return sink;
  }

  /** The key a writer uses for a table that records none: {@code primary.key.fields}; none for append tables. */
  private List<String> writerKey() {
    return kind.keyColumns(List.of(), options.primaryKeyFields());
  }

  private NewTable spec(ChangeEvent event) {
    List<String> key = kind.newTableKey(event, options.primaryKeyFields());
    Map<String, String> properties = new HashMap<>(options.tableProperties());
    properties.putAll(kind.newTableProperties());
    return new NewTable(kind.newTableSchema(event, key), key, options.partitionFields(), properties, kind.writeKind());
  }
}
