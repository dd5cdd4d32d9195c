package io.mergesink.ingest.format.delta;

import io.mergesink.core.generatedcolumns.GeneratedColumns;
import io.mergesink.core.log.LogPaths;
import io.mergesink.core.maintenance.CompactionOptions;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.snapshot.TableNotFoundException;
import io.mergesink.core.storage.RequestCounts;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.errors.FatalIngestException;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.NewTable;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.options.PartitionField;
import io.mergesink.ingest.options.WriteMode;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.route.TableRouter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta tables under {@code table.root}: a table is a directory with a {@code _delta_log}; tables
 * are created as version 0 with the protocol their schema and properties need, and opened only when
 * MergeSink can honour every feature they use.
 */
public final class DeltaFormat implements TableFormat {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaFormat.class);
  private static final String LOG_DIR = "_delta_log";
  /** Compaction runs beside ingestion; this bounds how much one run rewrites before the next commit's tables get theirs. */
  private static final Duration COMPACTION_TIME_BUDGET = Duration.ofSeconds(10);

  private final IngestOptions options;
  private final Storage storage;
  private final CompactionOptions compaction;
  private final int maxDepth;
  /** The task's partitions as of its latest assignment, which every table it writes shares. */
  private TaskPartitions taskPartitions;

  /**
   * @throws FatalIngestException the root's storage cannot hold tables (a scheme without atomic
   *     commits, an S3 root without a region)
   */
  public DeltaFormat(IngestOptions options) {
    this.options = options;
    this.storage = openStorage(options);
    this.compaction = DeltaWriteOptions.compaction(options)
        .withBudget(CompactionOptions.DEFAULT_MAX_BYTES_PER_RUN, CompactionOptions.DEFAULT_MAX_FILES_PER_RUN, COMPACTION_TIME_BUDGET);
    this.maxDepth = options.tableNameFormat().format().split("/", -1).length;
  }

  @Override
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

  @Override
  public Optional<FormatTable> open(String table, List<String> writerKey, Collection<KafkaPartition> partitions) throws IOException {
    DeltaTable delta = DeltaTable.forPath(storage, path(table));
    Snapshot snapshot;
    try {
      snapshot = delta.snapshot();
    } catch (TableNotFoundException e) {
      return Optional.empty();
    }
    return Optional.of(open(delta, snapshot, writerKey, partitions));
  }

  @Override
  public FormatTable create(String table, NewTable spec, List<String> writerKey, Collection<KafkaPartition> partitions) throws IOException {
    DeltaTable delta = DeltaTable.forPath(storage, path(table));
    Snapshot snapshot = delta.createIfAbsent(spec(spec));
    LOG.info("Created table {} at {} with schema {}", table, delta.root(), snapshot.schema());
    return open(delta, snapshot, writerKey, partitions);
  }

  @Override
  public RequestCounts requests() {
    return storage.requests();
  }

  @Override
  public RequestCounts requestsOfThisThread() {
    return storage.requestsOfThisThread();
  }

  @Override
  public void close() {
    storage.close();
  }

  /**
   * @throws io.mergesink.core.protocol.UnsupportedTableException the table needs a feature MergeSink
   *     cannot honour: the task fails at once, naming table and feature, instead of at its first commit
   */
  private FormatTable open(DeltaTable delta, Snapshot snapshot, List<String> writerKey, Collection<KafkaPartition> partitions) {
    ProtocolSupport.checkWritable(delta.root(), snapshot.protocol(), snapshot.metadata());
    WriteKind writeKind = options.writeMode() == WriteMode.APPEND ? WriteKind.APPEND : WriteKind.BY_KEY;
    return new DeltaFormatTable(storage, delta, snapshot, this::taskPartitions, partitions, compaction, writeKind, writerKey);
  }

  /**
   * A task holding {@code partitions} (docs/design.md, "File ownership"): its key index covers the
   * files that may hold rows of them. Built once per assignment and shared by the task's tables.
   */
  private synchronized TaskPartitions taskPartitions(Collection<KafkaPartition> partitions) {
    // a task of a thousand partitions opens a thousand tables: each compares the partitions, none copies them
    if (taskPartitions == null || taskPartitions.partitions().size() != partitions.size()
        || !taskPartitions.partitions().containsAll(partitions)) {
      Set<KafkaPartition> held = Set.copyOf(partitions);
      WriterOptions writerOptions = DeltaWriteOptions.writer(options).withScope(PartitionOwners.scope(PartitionOwners.of(held),
          options.lookupScope()));
      taskPartitions = new TaskPartitions(held, writerOptions);
    }
    return taskPartitions;
  }

  private TableSpec spec(NewTable spec) {
    StructType schema = partitioned(spec.schema(), spec.partitionFields());
    List<String> partitionColumns = spec.partitionFields().stream().map(PartitionField::column).toList();
    return spec.writeKind() == WriteKind.APPEND
        ? TableSpec.append(schema, spec.keyColumns(), partitionColumns, spec.properties())
        : new TableSpec(schema, spec.keyColumns(), partitionColumns, options.mergeStrategy(), spec.properties());
  }

  /** {@code schema} with the computed partition columns of {@code fields} appended, as generated columns. */
  private static StructType partitioned(StructType schema, List<PartitionField> fields) {
    StructType partitioned = schema;
    for (PartitionField field : fields) {
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

  private String path(String table) {
    return TableRouter.resolve(options.tableRoot(), table);
  }

  private static Storage openStorage(IngestOptions options) {
    try {
      return Storages.forRoot(options.tableRoot(), options.storage());
    } catch (IllegalArgumentException e) {
      throw new FatalIngestException(e.getMessage(), e);
    }
  }
}
