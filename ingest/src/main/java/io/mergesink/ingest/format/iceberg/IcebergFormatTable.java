package io.mergesink.ingest.format.iceberg;

import org.apache.iceberg.DataOperations;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeInto;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.table.PrimaryKeyProperty;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.RowScan;
import io.mergesink.ingest.format.WriteKind;
import io.mergesink.ingest.maintenance.CompactionRun;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Schema;
import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * One Iceberg table as a task writes it: the table's current snapshot, and an {@link IcebergWriter}
 * opened at the first call that needs one. Positions are those of the snapshot summaries
 * ({@link SnapshotPositions}); the version is the snapshot's sequence number.
 */
final class IcebergFormatTable implements FormatTable {
  private static final int SCHEMA_COMMIT_ATTEMPTS = 10;
  private static final Duration ORPHAN_REMOVAL_INTERVAL = Duration.ofDays(1);

  private final Table table;
  private final Supplier<Table> load;
  private final Maintenance maintenance;
  private final WriteKind writeKind;
  private final List<String> writerKey;
  private final RowLevelOperationMode defaultMode;
  /**
   * The table's schema as the engine's, converted once per Iceberg schema: the sink derives what its rows
   * need once per schema object, and asks for it with every change.
   */
  private volatile ConvertedSchema converted;

  private record ConvertedSchema(Schema from, StructType schema) {}
  private IcebergWriter writer;
  /** When a maintenance run next removes orphan files: at the first run, then once per interval (a listing of the whole table). */
  private long nextOrphanRemoval;

  /**
   * When and how the sink maintains its tables: off, or rewriting files whose deletes hide at least
   * {@code deletedRatio} of their rows and packing {@code minSmallFiles} or more files below
   * {@code targetFileSizeBytes}.
   */
  record Maintenance(boolean enabled, double deletedRatio, int minSmallFiles, long targetFileSizeBytes) {}

  /**
   * @param load a new instance of the table, for maintenance runs on a thread of their own
   * @param writerKey the key for a table that records none (no identifier fields); checked against a recorded one
   * @param defaultMode how rows are replaced in a table whose {@code write.merge.mode} does not say
   */
  IcebergFormatTable(Table table, Supplier<Table> load, Maintenance maintenance, WriteKind writeKind, List<String> writerKey,
      RowLevelOperationMode defaultMode) {
    this.table = table;
    this.load = load;
    this.maintenance = maintenance;
    this.writeKind = writeKind;
    this.writerKey = List.copyOf(writerKey);
    this.defaultMode = defaultMode;
  }

  @Override
  public String location() {
    return table.location();
  }

  @Override
  public long version() {
    Snapshot current = table.currentSnapshot();
    return current == null ? 0 : current.sequenceNumber();
  }

  @Override
  public StructType schema() {
    Schema current = table.schema();
    ConvertedSchema last = converted;
    if (last == null || last.from() != current) {
      last = new ConvertedSchema(current, IcebergSchemas.fromIceberg(current));
      converted = last;
    }
    return last.schema();
  }

  @Override
  public Map<String, String> properties() {
    return table.properties();
  }

  /**
   * The identifier fields, in the order of the schema; in a table without (a history table, several
   * rows per key) the key of the table property {@link PrimaryKeyProperty#PROPERTY}, if any.
   */
  @Override
  public List<String> recordedKey() {
    Set<Integer> ids = table.schema().identifierFieldIds();
    if (ids.isEmpty()) {
      return PrimaryKeyProperty.of(table.properties());
    }
    return table.schema().columns().stream().filter(column -> ids.contains(column.fieldId())).map(Types.NestedField::name).toList();
  }

  @Override
  public Set<String> positionIds() {
    return positions().keySet();
  }

  @Override
  public OptionalLong position(String id) {
    Long offset = positions().get(id);
    return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
  }

  private Map<String, Long> positions() {
    return SnapshotPositions.of(SnapshotUtil.currentAncestors(table));
  }

  @Override
  public Optional<String> commitTag(long version, String name) {
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      if (snapshot.sequenceNumber() == version) {
        return Optional.ofNullable(snapshot.summary().get(SnapshotPositions.TAG_PREFIX + name));
      }
    }
    return Optional.empty();
  }

  @Override
  public boolean rewritesOnly(long version) {
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      if (snapshot.sequenceNumber() == version) {
        return DataOperations.REPLACE.equals(snapshot.operation());
      }
    }
    return false;
  }

  @Override
  public OptionalLong timeTravelId(long version) {
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      if (snapshot.sequenceNumber() == version) {
        return OptionalLong.of(snapshot.snapshotId());
      }
    }
    return OptionalLong.empty();
  }

  @Override
  public void refresh() throws IOException {
    StorageFailures.run(table::refresh);
  }

  @Override
  public void followWriter() throws IOException {
    StorageFailures.<IcebergWriter, RuntimeException>checked(this::writer);
  }

  @Override
  public void addColumns(List<StructField> columns) throws IOException {
    updateSchema((schema, update) -> {
      AtomicInteger ids = new AtomicInteger(0);
      boolean changed = false;
      for (StructField column : columns) {
        if (schema.findField(column.name()) == null) {
          update.addColumn(column.name(), IcebergSchemas.toIceberg(column.type(), ids));
          changed = true;
        }
      }
      return changed;
    });
  }

  /** Iceberg widens int to long, float to double and a decimal's precision; byte and short are int already. */
  @Override
  public void widenColumns(Map<String, DataType> types) throws IOException {
    updateSchema((schema, update) -> {
      boolean changed = false;
      for (Map.Entry<String, DataType> column : types.entrySet()) {
        Type now = schema.findType(column.getKey());
        Type wider = IcebergSchemas.toIceberg(column.getValue(), new AtomicInteger(0));
        if (now == null || now.equals(wider)) {
          continue;
        }
        if (!wider.isPrimitiveType()) {
          throw new IllegalArgumentException("column '" + column.getKey() + "' of Iceberg table " + table.name() + " cannot become "
              + column.getValue());
        }
        try {
          update.updateColumn(column.getKey(), wider.asPrimitiveType());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("column '" + column.getKey() + "' of Iceberg table " + table.name() + " cannot be widened"
              + " from " + now + " to " + wider + ": " + e.getMessage(), e);
        }
        changed = true;
      }
      return changed;
    });
  }

  @Override
  public void makeNullable(List<String> columns) throws IOException {
    updateSchema((schema, update) -> {
      List<String> required = columns.stream().filter(column -> schema.findField(column) != null && schema.findField(column).isRequired())
          .toList();
      required.forEach(update::makeColumnOptional);
      return !required.isEmpty();
    });
  }

  /**
   * Commits a schema change made on the table's latest schema. Iceberg commits a schema update only
   * on the metadata it was made on: when another writer committed first, the change is made again on
   * the newer schema (where it may have nothing left to do).
   *
   * @param change adds its changes of the given schema to the update; false when there are none
   * @throws IOException reading or writing the table's metadata failed: nothing changed, or the
   *     change is committed and the next call finds nothing left to do
   */
  private void updateSchema(BiFunction<Schema, UpdateSchema, Boolean> change) throws IOException {
    for (int attempt = 1; ; attempt++) {
      UpdateSchema update = StorageFailures.<UpdateSchema, RuntimeException>checked(() -> {
        table.refresh();
        return table.updateSchema();
      });
      if (!change.apply(table.schema(), update)) {
        return;
      }
      try {
        StorageFailures.run(update::commit);
        return;
      } catch (CommitFailedException e) {
        if (attempt == SCHEMA_COMMIT_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  @Override
  public void changeProperties(UnaryOperator<Map<String, String>> change) throws IOException {
    StorageFailures.run(table::refresh);
    Map<String, String> before = new TreeMap<>(table.properties());
    Map<String, String> after = change.apply(before);
    UpdateProperties update = table.updateProperties();
    boolean changed = false;
    for (Map.Entry<String, String> property : after.entrySet()) {
      if (!Objects.equals(before.get(property.getKey()), property.getValue())) {
        update.set(property.getKey(), property.getValue());
        changed = true;
      }
    }
    for (String key : before.keySet()) {
      if (!after.containsKey(key)) {
        update.remove(key);
        changed = true;
      }
    }
    if (changed) {
      StorageFailures.run(update::commit);
    }
  }

  /** Iceberg tables compute no columns of their own. */
  @Override
  public Row complete(Row row) {
    return row;
  }

  /** Iceberg's generic reader, which prunes files by their column bounds. */
  @Override
  public RowScan scan(List<String> columns, Map<String, Long> equalTo) {
    for (String column : columns) {
      if (table.schema().findField(column) == null) {
        throw new IllegalArgumentException("column '" + column + "' is not in Iceberg table " + table.name());
      }
    }
    Expression filter = Expressions.alwaysTrue();
    for (Map.Entry<String, Long> bound : equalTo.entrySet()) {
      filter = Expressions.and(filter, Expressions.equal(bound.getKey(), bound.getValue()));
    }
    CloseableIterable<Record> records = IcebergGenerics.read(table).select(columns).where(filter).build();
    Iterator<Record> iterator = records.iterator();
    List<Type> types = columns.stream().map(column -> table.schema().findType(column)).toList();
    return new RowScan() {
      @Override
      public boolean hasNext() {
        return iterator.hasNext();
      }

      @Override
      public Row next() {
        Record record = iterator.next();
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = IcebergRows.fromIceberg(types.get(i), record.getField(columns.get(i)));
        }
        return Row.of(values);
      }

      @Override
      public void close() throws IOException {
        records.close();
      }
    };
  }

  /** Tables with a key: the writer's key index finds the rows, {@link IcebergLiveRows} reads them. */
  @Override
  public boolean decidesAgainstRows() {
    return writeKind == WriteKind.BY_KEY;
  }

  @Override
  public LiveRows liveRows() throws IOException {
    if (writeKind != WriteKind.BY_KEY) {
      throw new IllegalStateException("Iceberg table " + table.name() + " has no key index: it is written as an append table");
    }
    return StorageFailures.<LiveRows, RuntimeException>checked(() -> writer().liveRows());
  }

  @Override
  public MergeActions decide(MergeSpec spec, List<Row> source) throws IOException {
    return StorageFailures.checked(() -> MergeInto.decide(liveRows(), spec, source));
  }

  @Override
  public CommitResult commit(ChangeSet changes) throws IOException, FencedException {
    return StorageFailures.<CommitResult, FencedException>checked(() -> writer().commit(changes));
  }

  /** Rewrites and expiration of the table's files ({@link IcebergCompaction}), for tables with a key; empty before the writer's first commit. */
  @Override
  public Optional<CompactionRun> compaction() {
    if (!maintenance.enabled() || writer == null || writeKind == WriteKind.APPEND) {
      return Optional.empty();
    }
    long now = System.currentTimeMillis();
    boolean removeOrphans = now >= nextOrphanRemoval;
    Optional<CompactionRun> run = IcebergCompaction.plan(load, table, writer.index().files(), maintenance.deletedRatio(),
        maintenance.minSmallFiles(), maintenance.targetFileSizeBytes(), removeOrphans);
    if (removeOrphans) {
      nextOrphanRemoval = now + ORPHAN_REMOVAL_INTERVAL.toMillis();
    }
    return run;
  }

  /** The writer's key index follows the rewrite, so that its next deletes mark the new files. */
  @Override
  public void compacted() {
    table.refresh();
    if (writer != null) {
      writer.index();
    }
  }

  @Override
  public long keyIndexHeapBytes() {
    return writer == null ? 0 : writer.indexHeapBytes();
  }

  /** The writer goes with its index; the next commit opens one on the table's current snapshot. */
  @Override
  public void dropKeyIndex() {
    writer = null;
  }

  @Override
  public boolean reassign(Collection<KafkaPartition> partitions) throws IOException {
    writer = null;
    try {
      StorageFailures.run(table::refresh);
      return true;
    } catch (NoSuchTableException e) {
      return false;
    }
  }

  private IcebergWriter writer() {
    if (writer == null) {
      writer = new IcebergWriter(table, writeKind == WriteKind.APPEND ? List.of() : key(), defaultMode);
    }
    return writer;
  }

  /**
   * The key rows are replaced by: the table's identifier fields, else the writer's key.
   *
   * @throws IllegalStateException the table records another key than the writer's
   */
  private List<String> key() {
    List<String> recorded = recordedKey();
    if (recorded.isEmpty()) {
      if (writerKey.isEmpty()) {
        throw new IllegalStateException("Iceberg table " + table.name() + " has no identifier fields: set primary.key.fields");
      }
      return writerKey;
    }
    if (!writerKey.isEmpty() && !Set.copyOf(writerKey).equals(Set.copyOf(recorded))) {
      throw new IllegalStateException("Iceberg table " + table.name() + " is keyed by its identifier fields " + recorded
          + ", not by " + writerKey);
    }
    return recorded;
  }
}
