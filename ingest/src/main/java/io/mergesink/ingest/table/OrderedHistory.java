package io.mergesink.ingest.table;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.changes.RowPosition;
import io.mergesink.core.changes.StoredRow;
import io.mergesink.core.data.Row;
import io.mergesink.core.data.Unchanged;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.ingest.buffer.ChangeOrder;
import io.mergesink.ingest.buffer.TableChanges;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The change sets of history tables (docs/design.md, "History tables"), in the {@link VersionOrder}
 * the table is written in. With {@code upsert.order.by} every version keeps its sequence, and the
 * sequence of the change that ended it ({@link HistoryColumns#endColumn}), so that a change lands
 * where its sequence puts it in its key's history, whenever it is delivered. In Kafka order
 * ({@link KafkaOrder}) versions keep no sequence: every change lands after the versions the table
 * holds, so only the current rows are read, a delete that finds no version to close is forgotten,
 * and a change whose values equal the open version's (a re-snapshot, an update that set nothing
 * new) leaves that version open, as no later change is ordered against its sequence.
 *
 * <p>Per flush, the versions of the keys it changes are read: the current rows through the key
 * index, and, for the keys whose changes may land before their current version or that have none
 * (deleted or new keys), every version, in one scan pruned by the files' key statistics
 * ({@link LiveRows#rowsOfKeys}). Each key's changes apply in sequence order (changes without a
 * sequence stay where Kafka put them):
 *
 * <ul>
 *   <li>a change newer than every version closes the current one and becomes current;
 *   <li>an older one splits the version v before it: v ends at its time, and it becomes a closed
 *       version up to v's old end (an older delete just ends v); before the first version, it ends
 *       where that one starts (a delete there changes nothing);
 *   <li>after a version a delete closed, a change newer than the delete opens a version again;
 *   <li>a change with the sequence of a version is that change again, and changes nothing (a clock
 *       or column tie: the later delivered replaces the version's values).
 * </ul>
 *
 * A delete before a key's first version (its versions were still on their way, e.g. in a lagging
 * partition of a topic that grew) has nothing to close, and the table keeps nothing of it; so the
 * task remembers it ({@link DeletedKeys}, traced in the log for the other tasks with a source
 * position, {@link DeleteTraces}), and a version that lands before it later ends there.
 *
 * <p>The change set replaces the current row of a key by upsert or delete, removes the closed versions
 * that changed by position, and appends the closed versions that are new or changed; all in the
 * commit with the txns, so that a replayed batch finds its sequences in place and changes nothing.
 */
final class OrderedHistory {
  private final VersionOrder order;
  private final int deletedKeysMax;
  /** Per table, the deletes that found no version to close. */
  private final Map<String, DeletedKeys> unplaced = new HashMap<>();
  /** Per table, the deletes the last decided change set found no version for; remembered when it lands. */
  private final Map<String, Map<Row, DeletedKeys.Delete>> undecided = new HashMap<>();
  /** Ordered by a source position: the deletes other tasks' commits traced. */
  private final DeleteTraces traces;

  OrderedHistory(VersionOrder order, int deletedKeysMax) {
    this.order = order;
    this.deletedKeysMax = deletedKeysMax;
    this.traces = order.tracesDeletes() ? new DeleteTraces() : null;
  }

  /** Whether versions keep no sequence: the table is written in Kafka order. */
  private boolean inKafkaOrder() {
    return order.column() == null;
  }

  ChangeSet.Builder assemble(TableSink sink, List<TableChanges> changes) throws IOException {
    order.deciding(changes);
    LiveRows live = sink.liveRows(); // opens the writer first, which may read a newer schema
    StructType schema = sink.schema();
    DeletedKeys remembered = unplaced.computeIfAbsent(sink.name(), name -> new DeletedKeys(deletedKeysMax));
    long tracedThrough = traces == null ? -1 : traces.catchUp(sink, remembered);
    Unplaced deletes = new Unplaced(remembered, new LinkedHashMap<>());
    Places places = new Places(schema, sink.keySchema(), order.column());
    List<List<ChangeEvent>> segments = segments(changes);
    Map<Row, List<Version>> histories = load(live, places, segments);
    for (List<ChangeEvent> segment : segments) {
      for (List<ChangeEvent> run : runs(segment)) {
        List<Version> history = histories.get(run.get(0).key());
        for (ChangeEvent event : run) {
          if (event.op() == Op.UPSERT) {
            upsert(sink, places, histories, history, event, deletes);
          } else {
            delete(history, event, deletes);
          }
        }
      }
      ChangeEvent last = segment.isEmpty() ? null : segment.get(segment.size() - 1);
      if (last != null && last.op() == Op.TRUNCATE) {
        truncate(live, places, histories, last);
      }
    }
    ChangeSet.Builder builder = ChangeSet.builder().rowSchema(schema);
    histories.forEach((key, history) -> land(places, key, history, builder));
    // decided from the versions read: lands only while the current rows are where they were (docs/design.md, "History tables")
    builder.decidedFrom(live.reads());
    order.decided(sink.name());
    undecided.put(sink.name(), deletes.found());
    if (traces != null) {
      DeleteTraces.guard(builder, tracedThrough, histories.keySet());
      if (!deletes.found().isEmpty()) {
        builder.commitTag(DeleteTraces.TAG, DeleteTraces.tag(false, deletes.found()));
      }
    }
    return builder;
  }

  /** The deletes of a table that found no version to close: those remembered, and those this decision found. */
  private record Unplaced(DeletedKeys remembered, Map<Row, DeletedKeys.Delete> found) {
    DeletedKeys.Delete of(Row key) {
      DeletedKeys.Delete delete = found.get(key);
      return delete == null ? remembered.deletedAt(key) : delete.newer(remembered.deletedAt(key));
    }

    void add(Row key, DeletedKeys.Delete delete) {
      found.merge(key, delete, DeletedKeys.Delete::newer);
    }
  }

  /** The flush's changes in Kafka order (partition after partition), cut after each truncate. */
  private static List<List<ChangeEvent>> segments(List<TableChanges> changes) {
    List<List<ChangeEvent>> segments = new ArrayList<>();
    List<ChangeEvent> segment = new ArrayList<>();
    for (TableChanges partition : changes) {
      for (ChangeEvent event : partition.changes()) {
        segment.add(event);
        if (event.op() == Op.TRUNCATE) {
          segments.add(segment);
          segment = new ArrayList<>();
        }
      }
    }
    segments.add(segment);
    return segments;
  }

  /**
   * The changes of a segment but its truncate as runs of one key's changes in the order they apply. Ordered by a sequence, one run per key, sorted ({@link #inSequenceOrder}). In Kafka
   * order, the changes as they came, each run the consecutive changes of a key: a key change's new
   * key takes its TOASTed values from the old key's version as of the change.
   */
  private List<List<ChangeEvent>> runs(List<ChangeEvent> segment) {
    List<List<ChangeEvent>> runs = new ArrayList<>();
    Map<Row, List<ChangeEvent>> byKey = new LinkedHashMap<>();
    for (ChangeEvent event : segment) {
      if (event.op() == Op.TRUNCATE) {
        continue; // the last of its segment: it applies after the runs
      }
      if (!inKafkaOrder()) {
        byKey.computeIfAbsent(event.key(), key -> new ArrayList<>()).add(event);
      } else if (!runs.isEmpty() && runs.get(runs.size() - 1).get(0).key().equals(event.key())) {
        runs.get(runs.size() - 1).add(event);
      } else {
        runs.add(new ArrayList<>(List.of(event)));
      }
    }
    byKey.values().forEach(events -> runs.add(inSequenceOrder(events)));
    return runs;
  }

  /** The change set last assembled for {@code table} landed: its skipped changes count now. */
  void landed(String table) {
    Map<Row, DeletedKeys.Delete> found = undecided.remove(table);
    if (found != null) {
      DeletedKeys remembered = unplaced.get(table);
      found.forEach(remembered::deleted);
    }
    order.landed(table);
  }

  /**
   * A key's changes sorted by sequence, stable (equal sequences in delivery order); a change
   * without a sequence keeps its place in Kafka order, between the sorted runs before and after it.
   */
  private List<ChangeEvent> inSequenceOrder(List<ChangeEvent> events) {
    List<ChangeEvent> sorted = new ArrayList<>(events.size());
    List<ChangeEvent> run = new ArrayList<>();
    Comparator<ChangeEvent> bySequence = (a, b) -> ChangeOrder.compare(order.sequence(a), order.sequence(b));
    for (ChangeEvent event : events) {
      if (order.sequence(event) == null) {
        run.sort(bySequence);
        sorted.addAll(run);
        run.clear();
        sorted.add(event);
      } else {
        run.add(event);
      }
    }
    run.sort(bySequence);
    sorted.addAll(run);
    return sorted;
  }

  /**
   * The versions of every key the changes touch (or take TOASTed values from), each key's sorted
   * by sequence: its current row, and its closed versions when a change may land among them.
   */
  private Map<Row, List<Version>> load(LiveRows live, Places places, List<List<ChangeEvent>> segments) throws IOException {
    Map<Row, List<ChangeEvent>> byKey = new LinkedHashMap<>();
    for (List<ChangeEvent> segment : segments) {
      for (ChangeEvent event : segment) {
        if (event.key() != null) {
          byKey.computeIfAbsent(event.key(), key -> new ArrayList<>()).add(event);
        }
        if (event.previousKey() != null) {
          byKey.computeIfAbsent(event.previousKey(), key -> new ArrayList<>());
        }
      }
    }
    Row[] keys = byKey.keySet().toArray(new Row[0]);
    Row[] current = keys.length == 0 ? new Row[0] : live.read(keys, places.schema.fieldNames());
    Map<Row, List<Version>> histories = new LinkedHashMap<>();
    Set<Row> scanned = new HashSet<>();
    for (int i = 0; i < keys.length; i++) {
      List<Version> history = new ArrayList<>();
      histories.put(keys[i], history);
      if (current[i] != null) {
        history.add(Version.stored(current[i], null, places));
      }
      if (places.keepsSequences() && (current[i] == null || mayLandBefore(byKey.get(keys[i]), places.sequence(current[i])))) {
        scanned.add(keys[i]);
      }
    }
    for (StoredRow stored : live.rowsOfKeys(scanned)) {
      if (!places.isCurrent(stored.row())) {
        histories.get(places.key(stored.row())).add(Version.stored(stored.row(), stored.position(), places));
      }
    }
    Comparator<Version> bySequence = (a, b) -> a.sequence == null || b.sequence == null
        ? Boolean.compare(a.sequence != null, b.sequence != null) : ChangeOrder.compare(a.sequence, b.sequence);
    histories.values().forEach(history -> history.sort(bySequence.thenComparing(Version::from, Comparator.nullsFirst(Long::compare))));
    return histories;
  }

  /** Whether one of {@code changes} is older than the current version's {@code currentSequence}. */
  private boolean mayLandBefore(List<ChangeEvent> changes, Object currentSequence) {
    if (currentSequence == null) {
      return false; // a version written before ordering: every change is newer
    }
    for (ChangeEvent event : changes) {
      Object sequence = order.sequence(event);
      if (sequence != null && ChangeOrder.compare(sequence, currentSequence) < 0) {
        return true;
      }
    }
    return false;
  }

  private void upsert(TableSink sink, Places places, Map<Row, List<Version>> histories, List<Version> history, ChangeEvent event,
      Unplaced deletes) {
    Object sequence = order.sequence(event);
    Long time = HistoryColumns.time(event);
    Row value = sink.refit(event.valueSchema(), event.value());
    if (sequence == null) {
      // nothing places it: it is the newest, in Kafka order
      Version last = history.isEmpty() ? null : history.get(history.size() - 1);
      Version base = last != null && last.current ? last : baseOf(histories, event.previousKey(), null);
      if (last != null && last.current) {
        last.close(time, null);
      }
      history.add(Version.fresh(value, null, time, base, places));
      return;
    }
    int before = before(history, sequence, false);
    Version previous = before < 0 ? null : history.get(before);
    Version next = before + 1 < history.size() ? history.get(before + 1) : null;
    if (next != null && next.sequence != null && ChangeOrder.compare(next.sequence, sequence) == 0) {
      // the version of this change (or of one at the same sequence)
      if (!order.laterWinsTies() || !next.takeValues(value, places)) {
        order.skipped(event.position(), event.key(), sequence, next.sequence);
      }
      return;
    }
    Version version;
    if (previous == null) {
      version = Version.fresh(value, sequence, time, baseOf(histories, event.previousKey(), sequence), places);
      if (next != null) {
        version.close(next.from(), next.sequence);
      }
    } else if (previous.current) {
      version = Version.fresh(value, sequence, time, previous, places);
      if (!places.keepsSequences() && version.sameValues(previous)) {
        return; // a re-snapshot of the row, or an update that changed nothing: the open version stays
      }
      previous.close(time, sequence);
    } else if (previous.closedBy(next) || endsAfter(previous.endSequence, sequence)) {
      // between previous and what ended it (a version or a delete): previous ends here now
      version = Version.fresh(value, sequence, time, previous, places);
      version.close(previous.to(), previous.endSequence);
      previous.close(time, sequence);
    } else if (previous.endSequence != null && ChangeOrder.compare(previous.endSequence, sequence) == 0 && !order.laterWinsTies()) {
      // a change with the LSN of the delete that ended previous: the same position again (a snapshot row read just before it)
      order.skipped(event.position(), event.key(), sequence, previous.endSequence);
      return;
    } else {
      // after the delete that ended previous: the key exists again
      version = Version.fresh(value, sequence, time, baseOf(histories, event.previousKey(), sequence), places);
      if (next != null) {
        version.close(next.from(), next.sequence);
      }
    }
    DeletedKeys.Delete delete = deletes.of(event.key());
    if (delete != null && ChangeOrder.compare(delete.sequence(), sequence) > 0
        && (version.current || endsAfter(version.endSequence, delete.sequence()))) {
      // a delete that came before this version and found none to close: the version ends there
      version.close(delete.time(), delete.sequence());
    }
    history.add(before + 1, version);
  }

  private void delete(List<Version> history, ChangeEvent event, Unplaced deletes) {
    Object sequence = order.sequence(event);
    Long time = HistoryColumns.time(event);
    if (sequence == null) {
      Version last = history.isEmpty() ? null : history.get(history.size() - 1);
      if (last != null && last.current && (order.appliesWithoutSequence(event) || last.sequence == null)) {
        last.close(time, null);
      }
      return;
    }
    int before = before(history, sequence, true);
    Version previous = before < 0 ? null : history.get(before);
    Version next = before + 1 < history.size() ? history.get(before + 1) : null;
    if (previous != null && !previous.current && previous.endSequence != null && ChangeOrder.compare(previous.endSequence, sequence) == 0) {
      order.skipped(event.position(), event.key(), sequence, previous.endSequence); // the delete that ended previous, again
      return;
    }
    if (previous != null && (previous.current || previous.closedBy(next) || endsAfter(previous.endSequence, sequence))) {
      if (!previous.current && !previous.closedBy(next)) {
        // previous ended at a later delete, which still ends a version that lands between the two
        deletes.add(event.key(), new DeletedKeys.Delete(previous.endSequence, previous.to()));
      }
      previous.close(time, sequence);
    } else if (!inKafkaOrder()) {
      // no version is open here (the key's versions up to it are still on their way, or it was deleted before):
      // a version that lands before it later ends here
      deletes.add(event.key(), new DeletedKeys.Delete(sequence, time));
    }
  }

  /** Closes every current version at the truncate's time; reads the current rows of keys the flush did not load. */
  private void truncate(LiveRows live, Places places, Map<Row, List<Version>> histories, ChangeEvent truncate) throws IOException {
    for (Row row : live.readAll()) {
      histories.computeIfAbsent(places.key(row), key -> new ArrayList<>(List.of(Version.stored(row, null, places))));
    }
    for (List<Version> history : histories.values()) {
      Version last = history.isEmpty() ? null : history.get(history.size() - 1);
      if (last != null && last.current) {
        last.close(HistoryColumns.time(truncate), order.sequence(truncate));
      }
    }
  }

  /** Whether a version ended by a change at {@code endSequence} ends after {@code sequence} (null: ended in Kafka order, before it). */
  private static boolean endsAfter(Object endSequence, Object sequence) {
    return endSequence != null && ChangeOrder.compare(endSequence, sequence) > 0;
  }

  /**
   * The index of the last version before {@code sequence} (with {@code orEqual}, or at it), -1 when
   * none; versions without a sequence come before every sequence.
   */
  private static int before(List<Version> history, Object sequence, boolean orEqual) {
    int found = -1;
    for (int i = 0; i < history.size(); i++) {
      Object held = history.get(i).sequence;
      int order = held == null ? -1 : ChangeOrder.compare(held, sequence);
      if (order < 0 || (orEqual && order == 0)) {
        found = i;
      } else {
        break;
      }
    }
    return found;
  }

  /** The version a key change's TOASTed columns come from: the previous key's version before {@code sequence}. */
  private static Version baseOf(Map<Row, List<Version>> histories, Row previousKey, Object sequence) {
    List<Version> history = previousKey == null ? null : histories.get(previousKey);
    if (history == null || history.isEmpty()) {
      return null;
    }
    int before = sequence == null ? history.size() - 1 : before(history, sequence, false);
    return before < 0 ? null : history.get(before);
  }

  /** Adds what changed in one key's history to the change set. */
  private static void land(Places places, Row key, List<Version> history, ChangeSet.Builder builder) {
    Version current = null;
    boolean hadCurrent = false;
    for (Version version : history) {
      hadCurrent |= version.storedCurrent;
      if (version.current) {
        current = version;
      } else if (version.changed()) {
        if (version.position != null) {
          builder.remove(version.position);
        }
        builder.append(version.row());
      }
    }
    if (current != null && current.changed()) {
      builder.upsert(current.row());
    } else if (current == null && hadCurrent) {
      builder.delete(key);
    }
  }

  /** Where the version columns and the key are in rows of one table schema. */
  private static final class Places {
    /** The ordinal of a sequence column versions do not keep. */
    private static final int NONE = -1;
    final StructType schema;
    final int[] key;
    final int from;
    final int to;
    final int current;
    final int sequence;
    final int end;

    /** @param sequenceColumn null when versions keep no sequence */
    Places(StructType schema, StructType keySchema, String sequenceColumn) {
      this.schema = schema;
      this.key = keySchema.fieldNames().stream().mapToInt(schema::indexOf).toArray();
      this.from = ordinal(schema, HistoryColumns.VALID_FROM);
      this.to = ordinal(schema, HistoryColumns.VALID_TO);
      this.current = ordinal(schema, HistoryColumns.CURRENT);
      this.sequence = sequenceColumn == null ? NONE : ordinal(schema, sequenceColumn);
      this.end = sequenceColumn == null ? NONE : ordinal(schema, HistoryColumns.endColumn(sequenceColumn));
    }

    boolean keepsSequences() {
      return sequence != NONE;
    }

    Row key(Row row) {
      return row.project(key);
    }

    Object sequence(Row row) {
      return sequence == NONE ? null : row.get(sequence);
    }

    Object endSequence(Row row) {
      return end == NONE ? null : row.get(end);
    }

    /** Whether {@code column} is a version column (or a sequence column), which no change sets directly. */
    boolean isVersionColumn(int column) {
      return column == from || column == to || column == current || column == sequence || column == end;
    }

    boolean isCurrent(Row row) {
      return Boolean.TRUE.equals(row.get(current));
    }

    private static int ordinal(StructType schema, String column) {
      int ordinal = schema.indexOf(column);
      if (ordinal < 0) {
        throw new IllegalStateException("a history table without its column '" + column + "': " + schema.fieldNames());
      }
      return ordinal;
    }
  }

  /** One version of a key as the flush shapes it: its values (version columns included) and where it is stored. */
  private static final class Version {
    private final Places places;
    private final Object[] values;
    /** The row as stored, null for a version this flush makes. */
    private final Row stored;
    /** Where the stored row is, when it is a closed version (live to no key). */
    final RowPosition position;
    /** Whether the stored row is the key's current row. */
    final boolean storedCurrent;
    final Object sequence;
    Object endSequence;
    boolean current;

    private Version(Places places, Object[] values, Row stored, RowPosition position, Object sequence, Object endSequence) {
      this.places = places;
      this.values = values;
      this.stored = stored;
      this.position = position;
      this.storedCurrent = stored != null && places.isCurrent(stored);
      this.sequence = sequence;
      this.endSequence = endSequence;
      this.current = Boolean.TRUE.equals(values[places.current]);
    }

    static Version stored(Row row, RowPosition position, Places places) {
      return new Version(places, row.toArray(), row, position, places.sequence(row), places.endSequence(row));
    }

    /** A version of {@code value} from {@code time}, current, its TOASTed columns from {@code base} (null where there is none). */
    static Version fresh(Row value, Object sequence, Long time, Version base, Places places) {
      Object[] values = value.toArray();
      for (int i = 0; i < values.length; i++) {
        if (values[i] == Unchanged.VALUE) {
          values[i] = base == null ? null : base.values[i];
        }
      }
      if (places.keepsSequences()) {
        values[places.sequence] = sequence;
        values[places.end] = null;
      }
      values[places.from] = time;
      values[places.to] = null;
      values[places.current] = Boolean.TRUE;
      return new Version(places, values, null, null, sequence, null);
    }

    /** Ends this version at {@code time} by a change at {@code sequence}. */
    void close(Long time, Object sequence) {
      values[places.to] = time;
      if (places.keepsSequences()) {
        values[places.end] = sequence;
      }
      values[places.current] = Boolean.FALSE;
      endSequence = sequence;
      current = false;
    }

    /**
     * Takes the data columns of {@code value} (a change with this version's sequence, delivered
     * later), TOASTed ones kept; returns whether a value changed (else it is the same change again).
     */
    boolean takeValues(Row value, Places places) {
      boolean changed = false;
      for (int i = 0; i < values.length; i++) {
        if (!places.isVersionColumn(i) && value.get(i) != Unchanged.VALUE && !Objects.equals(values[i], value.get(i))) {
          values[i] = value.get(i);
          changed = true;
        }
      }
      return changed;
    }

    /** Whether this version holds the values of {@code other}, their version columns aside. */
    boolean sameValues(Version other) {
      return withoutVersionColumns().equals(other.withoutVersionColumns());
    }

    private Row withoutVersionColumns() {
      Object[] data = values.clone();
      for (int i = 0; i < data.length; i++) {
        if (places.isVersionColumn(i)) {
          data[i] = null;
        }
      }
      return Row.of(data);
    }

    /** Whether {@code next}, the version after this one, is what ended it (not a delete before it). */
    boolean closedBy(Version next) {
      return !current && next != null && endSequence != null && Objects.equals(endSequence, next.sequence);
    }

    Long from() {
      return (Long) values[places.from];
    }

    Long to() {
      return (Long) values[places.to];
    }

    Row row() {
      return Row.of(values.clone());
    }

    boolean changed() {
      return stored == null || !stored.equals(Row.of(values));
    }
  }
}
