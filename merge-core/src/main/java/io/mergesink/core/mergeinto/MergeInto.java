package io.mergesink.core.mergeinto;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.mergeinto.BoundSpec.Decision;
import io.mergesink.core.types.StructType;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.LiveRows;
import io.mergesink.core.writer.MergingTableWriter;
import io.mergesink.core.writer.TableWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The MERGE engine of one keyed table (docs/design.md, "MERGE engine"): joins source rows with the
 * table on its primary key, decides per row with the spec's ordered clauses, and lands the result
 * as one change set through the writer, whose strategy (deletion vectors or copy-on-write) is the
 * landing step.
 *
 * <p>Per source row it first decides what it can from the source alone. When the row lands the
 * same whether its key matched or not (an unconditional {@code UPDATE SET *} with
 * {@code INSERT *}; a DELETE with no NOT MATCHED clause that applies) it does not look the key up;
 * otherwise it looks the key up in the writer's key index, and reads the target row (by position,
 * only the columns the clauses declared) only when a MATCHED clause that needs its values comes
 * before the row is decided. An UPDATE keeps the columns it does not assign: they go to the
 * strategy as {@link io.mergesink.core.data.Unchanged#VALUE}, which it fills from the target row.
 *
 * <p>A key with several live rows (a table another tool wrote) is one target row to the engine:
 * the clauses see the values of one of them, and an UPDATE or DELETE replaces all of them.
 *
 * <p>The actions are decided against the writer's snapshot (or, with {@link #decide(LiveRows, MergeSpec, List)},
 * against the live rows of any format's table). When a key was looked up or a target
 * row read, the change set names them ({@link MergeActions#decidedFrom}): it lands only while they
 * are where they were, else it fails with {@link io.mergesink.core.changes.MovedRowsException} and
 * is decided again by the caller (another writer inserted, changed or deleted a row it decided
 * from). Rows decided from the source alone need no read set. Single-threaded, as the writer is.
 */
public final class MergeInto {
  private final MergingTableWriter writer;

  private MergeInto(MergingTableWriter writer) {
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /**
   * The engine over {@code writer}'s table; the writer is shared, not owned (its other commits may
   * come between merges).
   *
   * @throws IllegalArgumentException the writer keeps no key index (an append writer)
   */
  public static MergeInto on(TableWriter writer) {
    if (!(writer instanceof MergingTableWriter merging)) {
      throw new IllegalArgumentException("MERGE needs the writer of a table with a primary key (deletion-vectors or copy-on-write),"
          + " found " + writer.getClass().getName());
    }
    try {
      merging.liveRows();
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("MERGE needs the writer of a table with a primary key: " + e.getMessage(), e);
    }
    return new MergeInto(merging);
  }

  /**
   * Decides and commits {@code source} (rows of the spec's source schema) in one commit.
   *
   * @throws InvalidMergeException the spec does not fit the table, or a key is in several source
   *     rows with {@link SourceDuplicates#REJECT}; nothing was written
   * @throws io.mergesink.core.changes.InvalidChangeSetException a decided row does not fit the table
   *     (a value of the wrong type, null in a NOT NULL column); nothing was written
   * @throws IllegalArgumentException a condition or value read a column it did not declare
   * @throws io.mergesink.core.changes.MovedRowsException a concurrent commit changed a row the actions
   *     were decided from; nothing was written, decide again
   * @see io.mergesink.core.writer.TableWriter#commit for the commit's failures
   */
  public MergeResult execute(MergeSpec spec, List<Row> source) throws IOException, FencedException {
    MergeActions actions = decide(spec, source);
    CommitResult commit = writer.commit(actions.addTo(ChangeSet.builder()).build());
    return new MergeResult(actions.counts(), commit);
  }

  /**
   * Decides the actions for {@code source} against the writer's current snapshot without
   * committing them (a caller that records txns with them adds them to its own change set).
   *
   * @throws InvalidMergeException see {@link #execute}
   */
  public MergeActions decide(MergeSpec spec, List<Row> source) throws IOException {
    return decide(writer.liveRows(), spec, source);
  }

  /**
   * Decides the actions for {@code source} against {@code live}, the live rows of any format's
   * keyed table, without committing them; the actions name what they read
   * ({@link MergeActions#decidedFrom}), and that format's writer lands them only while it is
   * where it was.
   *
   * @throws InvalidMergeException see {@link #execute}
   */
  public static MergeActions decide(LiveRows live, MergeSpec spec, List<Row> source) throws IOException {
    String root = live.tableRoot();
    StructType tableSchema = live.schema();
    BoundSpec bound = BoundSpec.bind(root, spec, tableSchema, live.keySchema());
    for (Row row : source) {
      if (row.size() != spec.sourceSchema().size()) {
        throw new InvalidMergeException(root, "source row " + row + " has " + row.size() + " values, the source schema "
            + spec.sourceSchema().size() + " columns");
      }
    }
    Keyed keyed = distinctKeys(root, bound, live.keySchema(), source);
    List<Row> rows = keyed.rows();
    Row[] keys = keyed.keys();
    int n = rows.size();
    BoundSpec.BoundClause[] inserts = new BoundSpec.BoundClause[n];
    Decision[] matched = new Decision[n];
    List<Row> upserts = new ArrayList<>(n);
    List<Row> deletes = new ArrayList<>();
    List<Integer> toLookUp = new ArrayList<>();
    long upserted = 0;
    long deleted = 0;
    long untouched = 0;
    for (int i = 0; i < n; i++) {
      Row row = rows.get(i);
      RowView view = new SchemaRowView("source row", spec.sourceSchema(), row);
      BoundSpec.BoundClause insert = bound.insertClause(view);
      Decision decision = bound.matchedWithoutTarget(view);
      if (insert != null && BoundSpec.sameRow(decision, insert)) {
        upserts.add(bound.row(insert, view, SchemaRowView.NO_TARGET, row));
        upserted++;
      } else if (decision.kind() == Decision.Kind.DELETE && insert == null) {
        deletes.add(keys[i]);
        deleted++;
      } else if (decision.kind() == Decision.Kind.NONE && insert == null) {
        untouched++;
      } else {
        inserts[i] = insert;
        matched[i] = decision;
        toLookUp.add(i);
      }
    }
    boolean[] found = live.contain(select(keys, toLookUp));
    List<Integer> toRead = new ArrayList<>();
    for (int j = 0; j < found.length; j++) {
      if (found[j] && matched[toLookUp.get(j)].kind() == Decision.Kind.UNDECIDED) {
        toRead.add(toLookUp.get(j));
      }
    }
    Row[] targets = toRead.isEmpty() ? new Row[0] : live.read(select(keys, toRead), bound.targetReadSchema().fieldNames());
    RowView[] targetViews = new RowView[n];
    for (int j = 0; j < toRead.size(); j++) {
      int i = toRead.get(j);
      targetViews[i] = new SchemaRowView("target row", bound.targetReadSchema(), targets[j]);
      matched[i] = bound.matched(new SchemaRowView("source row", spec.sourceSchema(), rows.get(i)), targetViews[i]);
    }
    long inserted = 0;
    long updated = 0;
    for (int j = 0; j < found.length; j++) {
      int i = toLookUp.get(j);
      RowView view = new SchemaRowView("source row", spec.sourceSchema(), rows.get(i));
      if (!found[j]) {
        if (inserts[i] == null) {
          untouched++;
        } else {
          upserts.add(bound.row(inserts[i], view, SchemaRowView.NO_TARGET, rows.get(i)));
          inserted++;
        }
      } else {
        switch (matched[i].kind()) {
          case UPDATE -> {
            RowView target = targetViews[i] == null ? SchemaRowView.NO_TARGET : targetViews[i];
            upserts.add(bound.row(matched[i].clause(), view, target, rows.get(i)));
            updated++;
          }
          case DELETE -> {
            deletes.add(keys[i]);
            deleted++;
          }
          case NONE -> untouched++;
          case UNDECIDED -> throw new IllegalStateException("matched source row " + rows.get(i) + " left undecided");
        }
      }
    }
    ActionCounts counts = new ActionCounts(inserted, updated, deleted, upserted, untouched, toRead.size());
    return new MergeActions(upserts, deletes, tableSchema, counts, toLookUp.isEmpty() ? null : live.reads());
  }

  /** Source rows with one row per key, and their keys. */
  private record Keyed(List<Row> rows, Row[] keys) {}

  /**
   * The source rows, one per key: as given with {@link SourceDuplicates#REJECT} (an error naming
   * a key that repeats), the last row of each key with {@link SourceDuplicates#LAST_WINS}.
   */
  private static Keyed distinctKeys(String root, BoundSpec bound, StructType keySchema, List<Row> source) {
    KeySet seen = KeySet.create(keySchema, source.size());
    if (bound.spec().sourceDuplicates() == SourceDuplicates.LAST_WINS) {
      List<Row> last = new ArrayList<>(source.size());
      List<Row> lastKeys = new ArrayList<>(source.size());
      for (int i = source.size() - 1; i >= 0; i--) {
        Row key = checkedKey(root, bound, keySchema, source, i);
        if (seen.add(key)) {
          last.add(source.get(i));
          lastKeys.add(key);
        }
      }
      Collections.reverse(last);
      Collections.reverse(lastKeys);
      return new Keyed(last, lastKeys.toArray(new Row[0]));
    }
    Row[] keys = new Row[source.size()];
    for (int i = 0; i < source.size(); i++) {
      keys[i] = checkedKey(root, bound, keySchema, source, i);
      if (!seen.add(keys[i])) {
        int first = 0;
        while (!keys[first].equals(keys[i])) {
          first++;
        }
        throw new InvalidMergeException(root, "key " + keySchema.fieldNames() + " = " + keys[i] + " is in source rows " + first
            + " and " + i + ": a target row may be matched by one source row only, and the table holds one row per key (coalesce"
            + " the source, or let the last row of a key win with SourceDuplicates.LAST_WINS)");
      }
    }
    return new Keyed(source, keys);
  }

  private static Row checkedKey(String root, BoundSpec bound, StructType keySchema, List<Row> source, int index) {
    Row key = bound.key(source.get(index));
    for (int k = 0; k < key.size(); k++) {
      if (key.get(k) == null) {
        throw new InvalidMergeException(root, "source row " + index + " " + source.get(index) + " has no value for key column '"
            + keySchema.field(k).name() + "'");
      }
    }
    return key;
  }

  private static Row[] select(Row[] rows, List<Integer> indexes) {
    Row[] selected = new Row[indexes.size()];
    for (int i = 0; i < selected.length; i++) {
      selected[i] = rows[indexes.get(i)];
    }
    return selected;
  }
}
