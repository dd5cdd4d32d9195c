package io.mergesink.core.changes;

import io.mergesink.core.commit.TxnChange;
import io.mergesink.core.data.Row;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * A coalesced batch of changes for one table, committed atomically together with the offsets it
 * covers.
 *
 * <ul>
 *   <li>{@code upserts}: whole rows in table schema order. Each replaces the live row with the same
 *       key, or is inserted. In append mode every row is simply appended.
 *   <li>{@code deletes}: key rows (the key columns in the table's key order). A delete of a key
 *       that has no live row changes nothing.
 *   <li>{@code appends}: whole rows written as they are, replacing nothing and never live to the
 *       key index: the closed versions of a history table, whose current-row column
 *       ({@link io.mergesink.core.index.CurrentRowColumn}) they must hold false in. Other tables
 *       take none. Appends are not changes of a key: a key may have upserts or a delete as well.
 *   <li>{@code removals}: rows removed by their {@link RowPosition}, as of the snapshot the change
 *       set was decided on: rows live to no key (a history table's closed versions, which a late
 *       change splits; docs/design.md, "History tables"), which the key index cannot find. A
 *       key's live row is changed by an upsert or a delete, never removed by position. They land
 *       as every removed row does (deletion vectors or rewrites); when one is no longer there
 *       (a concurrent commit moved it) the writer throws {@link MovedRowsException}.
 *   <li>{@code txns}: Delta {@code txn} versions to record with the commit, by app id (one per Kafka
 *       partition), each a compare-and-set: the version the table must hold and the new one
 *       (docs/design.md, "Exactly once"). A change set may hold txns only.
 * </ul>
 *
 * <p>A change set decided from live rows it read ({@link io.mergesink.core.writer.LiveRows}) may name them as
 * {@code decidedFrom} (a history table's, docs/design.md "History tables"): it lands only while
 * they are where they were. A concurrent commit that changed one of them (or, after a whole-table
 * read, any file in the writer's scope) makes the writer throw {@link MovedRowsException} before it
 * writes anything, and the change set is decided again. Blind change sets name none.
 *
 * <p>A change set whose kind of decision depends on the table's properties (blind upserts are
 * right only while no topic's keys move between partitions) may name the properties it was
 * {@code decidedUnder} with their values: it lands only while the table has those values, else the
 * writer throws {@link MovedRowsException} before it plans, and the change set is decided again.
 *
 * <p>A change set may carry {@code commitTags}, written into its commit's {@code commitInfo.tags}
 * for later readers of the log (the keys ordered hard deletes removed, so that other writers skip
 * older changes of them), and may be {@code decidedBeforeTag}: it lands only while no commit after
 * the snapshot it was decided on carries such a tag that concerns it, else the writer throws
 * {@link MovedRowsException} before it plans and the change set is decided again (knowing the tag).
 *
 * <p>An upsert that ends a primary-key change may name the key the row had before: columns it
 * marks {@link io.mergesink.core.data.Unchanged} take the values of that key's live row.
 *
 * <p>A delete may name its sequence, the value of the table's sequence column as of the delete,
 * for a format that orders a key's rows by that column itself (Paimon's {@code sequence.field}): a
 * delete older than the key's row then leaves the row.
 *
 * <p>A change set may also {@code truncate}: every live row of the table is removed first, then
 * the upserts are written (deletes have nothing left to delete).
 *
 * <p>At most one change per key: a key in two upserts, two deletes, or an upsert and a delete is
 * rejected by the writer before anything is written.
 *
 * <p>A change set names the {@code owners} of its rows (docs/design.md, "File ownership"): the files
 * it adds are tagged with them (rewrites also with the owners of the rows they carry). A change set
 * that names none is anyone's: its files may hold any key.
 *
 * <p>A change set may name the {@code rowSchema} its upserts were built for. When the table's schema
 * changed since (another writer added columns), the writer realigns the rows before it plans:
 * columns appended to that schema read as null (docs/design.md, "Schema evolution"). Without a
 * row schema, rows must fit the schema of the snapshot the writer plans against.
 */
public final class ChangeSet {
  private final List<Row> upserts;
  private final List<Row> deletes;
  private final List<Row> appends;
  private final List<RowPosition> removals;
  private final Map<String, TxnChange> txns;
  private final boolean truncate;
  private final Map<Integer, Row> previousKeys;
  private final Map<Integer, Object> deleteSequences;
  private final StructType rowSchema;
  private final ReadSet decidedFrom;
  private final Map<String, String> decidedUnder;
  private final Map<String, String> commitTags;
  private final TagGuard tagGuard;
  private final FileOwners owners;

  /**
   * A change set decided on the snapshot of {@code version} lands only while no later commit
   * carries tag {@code tag} with a value {@code affects} accepts (see the class comment).
   */
  private record TagGuard(long version, String tag, Predicate<String> affects) {}

  private ChangeSet(List<Row> upserts, List<Row> deletes, List<Row> appends, List<RowPosition> removals, Map<String, TxnChange> txns,
      boolean truncate, Map<Integer, Row> previousKeys, Map<Integer, Object> deleteSequences, StructType rowSchema, ReadSet decidedFrom,
      Map<String, String> decidedUnder, Map<String, String> commitTags, TagGuard tagGuard, FileOwners owners) {
    this.previousKeys = Collections.unmodifiableMap(previousKeys);
    this.deleteSequences = Collections.unmodifiableMap(deleteSequences);
    this.upserts = Collections.unmodifiableList(upserts);
    this.deletes = Collections.unmodifiableList(deletes);
    this.appends = Collections.unmodifiableList(appends);
    this.removals = Collections.unmodifiableList(removals);
    this.txns = Collections.unmodifiableMap(txns);
    this.truncate = truncate;
    this.rowSchema = rowSchema;
    this.decidedFrom = decidedFrom;
    this.decidedUnder = Collections.unmodifiableMap(decidedUnder);
    this.commitTags = Map.copyOf(commitTags);
    this.tagGuard = tagGuard;
    this.owners = Objects.requireNonNull(owners, "owners");
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<Row> upserts() {
    return upserts;
  }

  public List<Row> deletes() {
    return deletes;
  }

  /** Rows written beside the changes, live to no key (history); see the class comment. */
  public List<Row> appends() {
    return appends;
  }

  /** Rows removed by position, live to no key; see the class comment. */
  public List<RowPosition> removals() {
    return removals;
  }

  /** Per txn app id, the version the table must hold and the one this change set records. */
  /** The sequence the delete at {@code index} names (see the class comment), or null. */
  public Object deleteSequence(int index) {
    return deleteSequences.get(index);
  }

  public Map<String, TxnChange> txns() {
    return txns;
  }

  /** The key the row of {@code upserts().get(index)} had before a primary-key change, or null. */
  public Row previousKey(int index) {
    return previousKeys.get(index);
  }

  /** Whether every live row of the table is removed before the upserts apply. */
  public boolean truncate() {
    return truncate;
  }

  /** The schema the upserts were built for, if the builder named one. */
  public Optional<StructType> rowSchema() {
    return Optional.ofNullable(rowSchema);
  }

  /** The live rows the change set was decided from, if it names them (see the class comment). */
  public Optional<ReadSet> decidedFrom() {
    return Optional.ofNullable(decidedFrom);
  }

  /** The table properties the change set was decided under, with their values (null: unset); see the class comment. */
  public Map<String, String> decidedUnder() {
    return decidedUnder;
  }

  /** Tags for the commit's {@code commitInfo}: what the writer tells later readers of the log (see the class comment). */
  public Map<String, String> commitTags() {
    return commitTags;
  }

  /** The owners of the change set's rows (see the class comment). */
  public FileOwners owners() {
    return owners;
  }

  /**
   * Checks that {@code snapshot}'s table has the properties this change set was decided under.
   *
   * @throws MovedRowsException a commit since the decision changed one of them: nothing is written, decide again
   */
  public void checkDecidedUnder(Snapshot snapshot) throws MovedRowsException {
    Map<String, String> configuration = snapshot.metadata().configuration();
    for (Map.Entry<String, String> property : decidedUnder.entrySet()) {
      String now = configuration.get(property.getKey());
      if (!Objects.equals(now, property.getValue())) {
        throw new MovedRowsException(snapshot.tableRoot(), "the change set was decided while table property " + property.getKey()
            + " was " + (property.getValue() == null ? "unset" : "'" + property.getValue() + "'") + ", and version "
            + snapshot.version() + " has " + (now == null ? "none" : "'" + now + "'"));
      }
    }
  }

  /**
   * Checks that no commit after the one this change set was decided on and up to {@code snapshot}
   * invalidates it ({@link #invalidatedBy}); {@code commits} reads a commit's entry.
   *
   * @throws MovedRowsException such a commit came between: nothing is written, decide again
   */
  public void checkTags(Snapshot snapshot, CommitReader commits) throws IOException {
    if (tagGuard == null) {
      return;
    }
    for (long version = tagGuard.version() + 1; version <= snapshot.version(); version++) {
      String reason = invalidatedBy(version, commits.read(version));
      if (reason != null) {
        throw new MovedRowsException(snapshot.tableRoot(), "the change set was decided at version " + tagGuard.version() + ", and "
            + reason);
      }
    }
  }

  /**
   * Why {@code entry}, the commit of {@code version}, invalidates this change set: it carries a tag
   * the change set must not land after ({@link Builder#decidedBeforeTag}); null when it does not.
   */
  public String invalidatedBy(long version, List<Action> entry) {
    if (tagGuard == null || version <= tagGuard.version()) {
      return null;
    }
    for (Action action : entry) {
      if (action instanceof CommitInfo info && info.tag(tagGuard.tag()) != null && tagGuard.affects().test(info.tag(tagGuard.tag()))) {
        return "version " + version + " says (" + tagGuard.tag() + ") it changed what the change set was decided from";
      }
    }
    return null;
  }

  /** Reads the actions of a table's commit. */
  @FunctionalInterface
  public interface CommitReader {
    List<Action> read(long version) throws IOException;
  }

  /**
   * Checks that no commit after the one this change set was decided on and up to {@code latest}
   * carries a tag it must not land after ({@link Builder#decidedBeforeTag}), for a format whose
   * commits carry their tags by name ({@code tags} gives a commit's, empty when the table does not
   * know it).
   *
   * @throws MovedRowsException such a commit came between: nothing is written, decide again
   */
  public void checkTags(String tableRoot, long latest, TagReader tags) throws MovedRowsException {
    if (tagGuard == null) {
      return;
    }
    for (long version = tagGuard.version() + 1; version <= latest; version++) {
      String tag = tags.read(version).get(tagGuard.tag());
      if (tag != null && tagGuard.affects().test(tag)) {
        throw new MovedRowsException(tableRoot, "the change set was decided at version " + tagGuard.version() + ", and version "
            + version + " says (" + tagGuard.tag() + ") it changed what the change set was decided from");
      }
    }
  }

  /** Reads the tags of a table's commit, by name. */
  @FunctionalInterface
  public interface TagReader {
    Map<String, String> read(long version);
  }

  /** This change set with other upserts and appends, in the same order (same previous keys), built for {@code schema}. */
  public ChangeSet withRows(List<Row> realignedUpserts, List<Row> realignedAppends, StructType schema) {
    if (realignedUpserts.size() != upserts.size() || realignedAppends.size() != appends.size()) {
      throw new IllegalArgumentException(realignedUpserts.size() + " upserts and " + realignedAppends.size() + " appends in place of "
          + upserts.size() + " and " + appends.size());
    }
    return new ChangeSet(realignedUpserts, deletes, realignedAppends, removals, txns, truncate, previousKeys, deleteSequences, schema,
        decidedFrom, decidedUnder, commitTags, tagGuard, owners);
  }

  /** This change set with its rows owned by {@code rowOwners} (see the class comment). */
  public ChangeSet withOwners(FileOwners rowOwners) {
    return new ChangeSet(upserts, deletes, appends, removals, txns, truncate, previousKeys, deleteSequences, rowSchema, decidedFrom,
        decidedUnder, commitTags, tagGuard, rowOwners);
  }

  public boolean hasRowChanges() {
    return truncate || !upserts.isEmpty() || !deletes.isEmpty() || !appends.isEmpty() || !removals.isEmpty();
  }

  @Override
  public String toString() {
    return "ChangeSet{upserts=" + upserts.size() + ", deletes=" + deletes.size() + (appends.isEmpty() ? "" : ", appends=" + appends.size())
        + (removals.isEmpty() ? "" : ", removals=" + removals.size())
        + ", truncate=" + truncate + ", txns=" + txns + "}";
  }

  /** Collects changes; {@link #build()} hands them over without copying. */
  public static final class Builder {
    private List<Row> upserts = new ArrayList<>();
    private List<Row> deletes = new ArrayList<>();
    private List<Row> appends = new ArrayList<>();
    private List<RowPosition> removals = new ArrayList<>();
    private Map<String, TxnChange> txns = new LinkedHashMap<>();
    private boolean truncate;
    private Map<Integer, Row> previousKeys = new HashMap<>();
    private Map<Integer, Object> deleteSequences = new HashMap<>();
    private StructType rowSchema;
    private ReadSet decidedFrom;
    private Map<String, String> decidedUnder = new LinkedHashMap<>();
    private Map<String, String> commitTags = new LinkedHashMap<>();
    private TagGuard tagGuard;
    private FileOwners owners = FileOwners.anyone();

    private Builder() {}

    /** The owners of the change set's rows (see the class comment); anyone's unless named. */
    public Builder owners(FileOwners rowOwners) {
      owners = Objects.requireNonNull(rowOwners, "rowOwners");
      return this;
    }

    /**
     * The change set is decided on the snapshot of {@code version} and lands only while no later
     * commit carries tag {@code tag} with a value {@code affects} accepts (see the class comment).
     */
    public Builder decidedBeforeTag(long version, String tag, Predicate<String> affects) {
      tagGuard = new TagGuard(version, tag, affects);
      return this;
    }

    /** Tag {@code name} of the commit's {@code commitInfo} (see the class comment). */
    public Builder commitTag(String name, String value) {
      commitTags.put(name, value);
      return this;
    }

    /** The change set is decided for the table while its property {@code name} has {@code value} (null: unset); see the class comment. */
    public Builder decidedUnder(String name, String value) {
      decidedUnder.put(name, value);
      return this;
    }

    /** The live rows the change set is decided from: it lands only while they are where they were (see the class comment). */
    public Builder decidedFrom(ReadSet reads) {
      decidedFrom = reads;
      return this;
    }

    /** The table schema the upserts are built for (see the class comment). */
    public Builder rowSchema(StructType schema) {
      rowSchema = schema;
      return this;
    }

    /**
     * An upsert ending a primary-key change: its unchanged columns take the values of the live row
     * of {@code previousKey} (null: an ordinary upsert).
     */
    public Builder upsert(Row row, Row previousKey) {
      if (previousKey != null) {
        previousKeys.put(upserts.size(), previousKey);
      }
      return upsert(row);
    }

    /** Removes every live row of the table before the upserts apply. */
    public Builder truncate() {
      truncate = true;
      return this;
    }

    public Builder upsert(Row row) {
      upserts.add(row);
      return this;
    }

    public Builder delete(Row key) {
      deletes.add(key);
      return this;
    }

    /** A delete of {@code key} as of {@code sequence}, the table's sequence column (see the class comment). */
    public Builder delete(Row key, Object sequence) {
      if (sequence != null) {
        deleteSequences.put(deletes.size(), sequence);
      }
      return delete(key);
    }

    /** A closed version of a history table, written as it is (see the class comment). */
    public Builder append(Row row) {
      appends.add(row);
      return this;
    }

    /** Removes the row at {@code position}, a row live to no key (see the class comment). */
    public Builder remove(RowPosition position) {
      removals.add(position);
      return this;
    }

    /** Records {@code change.version()} for {@code appId}, if the table holds {@code change.expected()} then. */
    public Builder txn(String appId, TxnChange change) {
      txns.put(appId, change);
      return this;
    }

    /** Records {@code version} for {@code appId}, if the table holds {@code expected} (empty: no version) then. */
    public Builder txn(String appId, OptionalLong expected, long version) {
      return txn(appId, new TxnChange(expected, version));
    }

    public ChangeSet build() {
      ChangeSet changeSet = new ChangeSet(upserts, deletes, appends, removals, txns, truncate, previousKeys, deleteSequences, rowSchema,
          decidedFrom, decidedUnder, commitTags, tagGuard, owners);
      previousKeys = new HashMap<>();
      deleteSequences = new HashMap<>();
      upserts = new ArrayList<>();
      deletes = new ArrayList<>();
      appends = new ArrayList<>();
      removals = new ArrayList<>();
      txns = new LinkedHashMap<>();
      truncate = false;
      rowSchema = null;
      decidedFrom = null;
      decidedUnder = new LinkedHashMap<>();
      commitTags = new LinkedHashMap<>();
      tagGuard = null;
      owners = FileOwners.anyone();
      return changeSet;
    }
  }
}
