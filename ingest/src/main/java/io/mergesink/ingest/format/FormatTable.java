package io.mergesink.ingest.format;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.mergeinto.MergeActions;
import io.mergesink.core.mergeinto.MergeSpec;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.maintenance.CompactionRun;
import io.mergesink.ingest.record.KafkaPartition;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * One open table of a {@link TableFormat}, as one task writes it. It follows one state of the table
 * (a Delta snapshot, an Iceberg snapshot, a Paimon snapshot): the latest it read or wrote, which
 * every accessor answers from. Its writer, opened at the first call that needs it, holds the scope
 * of the task's partitions (the rows it owns, the keys it looks up) until {@link #reassign}.
 *
 * <p>Exactly once rests on {@link #commit}: a change set lands together with the positions it
 * carries, and only while each position is where the change set expects it; the positions are read
 * back with {@link #position}. Not thread-safe, except the {@link CompactionRun} of
 * {@link #compaction}, which shares nothing with the writer.
 */
public interface FormatTable {
  /** Where the table is, for messages. */
  String location();

  /** The version of the state this table follows. */
  long version();

  /** The table schema, as of the state this table follows. */
  StructType schema();

  /**
   * The columns whose values name a data file's directory (Delta's partition columns), as of the
   * state this table follows; formats with hidden partitioning (Iceberg) have none.
   */
  default List<String> partitionColumns() {
    return List.of();
  }

  /** The table properties, as of the state this table follows. */
  Map<String, String> properties();

  /** The primary key the table records; empty when it records none. */
  List<String> recordedKey();

  /** The ids of the positions (one per Kafka partition that committed) the table records. */
  Set<String> positionIds();

  /** The position (the last Kafka offset the table holds) recorded under {@code id}. */
  OptionalLong position(String id);

  /** The tag {@code name} of the commit of {@code version}, if it has one and the table still knows that commit. */
  Optional<String> commitTag(long version, String name) throws IOException;

  /**
   * What time travel names {@code version} by: the version itself (Delta's, Paimon's snapshot id), or
   * Iceberg's snapshot id of that sequence number; empty when the table has no such version.
   */
  default OptionalLong timeTravelId(long version) throws IOException {
    return OptionalLong.of(version);
  }

  /**
   * What time travel names the rows of {@code version} by, as every reader sees them: {@link #timeTravelId}
   * of {@code version}, or of the first later version, with only rewrites between, from which readers see
   * them (a Paimon table with deletion vectors: readers skip level 0, so a commit's rows show from the
   * {@code COMPACT} snapshot of its compaction on); empty when no version shows them yet.
   */
  default OptionalLong readableId(long version) throws IOException {
    return timeTravelId(version);
  }

  /** Whether {@code version} only rewrote files and changed no row (a compaction). */
  default boolean rewritesOnly(long version) throws IOException {
    return false;
  }

  /** Reads the latest state of the table. */
  void refresh() throws IOException;

  /** Opens the writer if needed and follows the state it holds. */
  void followWriter() throws IOException;

  /** Adds nullable columns at the end of the schema (those present are skipped). */
  void addColumns(List<StructField> columns) throws IOException;

  /**
   * Widens columns to {@code types}.
   *
   * @throws IllegalArgumentException a type cannot be widened (the message names the column)
   */
  void widenColumns(Map<String, DataType> types) throws IOException;

  /** Makes NOT NULL columns nullable. */
  void makeNullable(List<String> columns) throws IOException;

  /** Changes the table properties to {@code change} of them, in a commit of their own unless nothing changes. */
  void changeProperties(UnaryOperator<Map<String, String>> change) throws IOException;

  /** {@code row} of the table schema with the values the table computes itself (Delta generated columns) filled. */
  Row complete(Row row);

  /**
   * The live rows of {@code columns} of the files whose statistics allow, for each column of
   * {@code equalTo}, its integer value; the caller closes them.
   *
   * @throws IllegalArgumentException a column is not in the table
   */
  RowScan scan(List<String> columns, Map<String, Long> equalTo) throws IOException;

  /**
   * Whether changes can be decided against the table's rows ({@link #liveRows}, {@link #decide}): what
   * ordering by a source position, soft deletes and history tables need. A table that cannot takes
   * change sets decided from the changes alone.
   */
  boolean decidesAgainstRows();

  /**
   * Whether the table orders a key's rows by a sequence column itself, whatever order they arrive
   * in (Paimon's {@code sequence.field}): changes ordered by a source position then land as they
   * are, deletes with their sequence ({@link io.mergesink.core.changes.ChangeSet.Builder#delete(
   * io.mergesink.core.data.Row, Object)}), instead of being decided against the table's rows.
   */
  default boolean ordersBySequenceColumn() {
    return false;
  }

  /**
   * The first version of the last {@code commits} commits that changed the table's rows, up to
   * {@code version}: {@code version - commits + 1} where each commit is one version; a format whose
   * commits may take several versions (a Paimon commit and its compaction) looks further back.
   */
  default long firstOfLastCommits(long version, int commits) {
    return Math.max(0, version - commits + 1);
  }

  /**
   * Makes the table order a key's rows by {@code column} from its next commit on (a table option,
   * committed at once); nothing when it does already.
   *
   * @throws UnsupportedOperationException the table does not order by a sequence column ({@link #ordersBySequenceColumn()})
   * @throws IllegalStateException the table orders by another column
   */
  default void orderBySequenceColumn(String column) throws IOException {
    throw new UnsupportedOperationException("table " + location() + " does not order its rows by a sequence column");
  }

  /**
   * The live rows by key, as of the writer's state (the writer is opened if needed); valid until
   * the next commit.
   *
   * @throws IllegalStateException the table is written without a key
   */
  LiveRows liveRows() throws IOException;

  /** What {@code spec} does with {@code source} against the table the writer holds (opened if needed); nothing is committed. */
  MergeActions decide(MergeSpec spec, List<Row> source) throws IOException;

  /**
   * Commits {@code changes} with the positions they carry, opening the writer first if needed.
   *
   * @throws FencedException a position of the change set is not where it expects it: another task
   *     took that partition over
   * @throws io.mergesink.core.changes.MovedRowsException a concurrent commit moved rows the change set
   *     was decided from; decide it again
   */
  CommitResult commit(ChangeSet changes) throws IOException, FencedException;

  /**
   * Maintenance of the rows of the task's partitions (docs/design.md, "Maintenance"), prepared on
   * the state the writer holds, to run on any thread in a commit of its own.
   *
   * @return empty before the writer's first commit of this assignment
   */
  Optional<CompactionRun> compaction();

  /** A maintenance commit landed: the writer reads it. */
  void compacted() throws IOException;

  /** The heap the writer's key index takes, an estimate; 0 when none is loaded, or the format keeps none. */
  long keyIndexHeapBytes();

  /** Drops the writer's key index to free its heap; the next commit loads it again. */
  void dropKeyIndex();

  /**
   * Drops the writer: the task holds {@code partitions} from this call on; the next commit opens a writer for
   * them. Reads the latest state of the table.
   *
   * @return false when the table is gone (deleted while the task ran)
   */
  boolean reassign(Collection<KafkaPartition> partitions) throws IOException;
}
