package io.mergesink.core.mergeinto;

import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What to merge: the schema of the source rows, the key columns the source joins the table on
 * (the table's primary key, by name), the ordered WHEN clauses, and what duplicate source keys
 * mean. Immutable; checked against the table when a merge runs ({@link MergeInto}).
 *
 * <pre>{@code
 * MergeSpec spec = MergeSpec.builder(sourceSchema, List.of("id"))
 *     .whenMatched(Condition.onSource(s -> "d".equals(s.get("op")))).thenDelete()
 *     .whenMatched(Condition.withTarget(List.of("version"), (s, t) -> (long) s.get("version") > (long) t.get("version")))
 *         .thenUpdateAll()
 *     .whenNotMatched(Condition.onSource(s -> !"d".equals(s.get("op")))).thenInsertAll()
 *     .build();
 * }</pre>
 */
public final class MergeSpec {
  private final StructType sourceSchema;
  private final List<String> keyColumns;
  private final List<MergeClause> matched;
  private final List<MergeClause.Insert> notMatched;
  private final SourceDuplicates duplicates;

  private MergeSpec(Builder builder) {
    this.sourceSchema = builder.sourceSchema;
    this.keyColumns = List.copyOf(builder.keyColumns);
    this.matched = List.copyOf(builder.matched);
    this.notMatched = List.copyOf(builder.notMatched);
    this.duplicates = builder.duplicates;
  }

  /**
   * A builder for source rows of {@code sourceSchema} joined on {@code keyColumns}, which the
   * source must have.
   *
   * @throws IllegalArgumentException when a key column is missing from the source, or named twice
   */
  public static Builder builder(StructType sourceSchema, List<String> keyColumns) {
    return new Builder(sourceSchema, keyColumns);
  }

  public StructType sourceSchema() {
    return sourceSchema;
  }

  /** The join columns, as the spec names them. */
  public List<String> keyColumns() {
    return keyColumns;
  }

  /** The WHEN MATCHED clauses ({@link MergeClause.Update} and {@link MergeClause.Delete}), in order. */
  public List<MergeClause> matchedClauses() {
    return matched;
  }

  /** The WHEN NOT MATCHED clauses, in order. */
  public List<MergeClause.Insert> notMatchedClauses() {
    return notMatched;
  }

  public SourceDuplicates sourceDuplicates() {
    return duplicates;
  }

  /** The target columns any MATCHED clause reads, in first-use order. */
  public List<String> targetColumns() {
    Set<String> columns = new LinkedHashSet<>();
    matched.forEach(clause -> columns.addAll(clause.targetColumns()));
    return new ArrayList<>(columns);
  }

  /** Collects the clauses in order; {@link #build()} checks there is at least one. */
  public static final class Builder {
    private final StructType sourceSchema;
    private final List<String> keyColumns;
    private final List<MergeClause> matched = new ArrayList<>();
    private final List<MergeClause.Insert> notMatched = new ArrayList<>();
    private SourceDuplicates duplicates = SourceDuplicates.REJECT;

    private Builder(StructType sourceSchema, List<String> keyColumns) {
      this.sourceSchema = Objects.requireNonNull(sourceSchema, "sourceSchema");
      if (keyColumns.isEmpty() || new LinkedHashSet<>(keyColumns).size() != keyColumns.size()) {
        throw new IllegalArgumentException("a merge joins on distinct key columns, found " + keyColumns);
      }
      for (String key : keyColumns) {
        if (sourceSchema.indexOf(key) < 0) {
          throw new IllegalArgumentException("key column '" + key + "' is not a column of the source " + sourceSchema.fieldNames());
        }
      }
      this.keyColumns = List.copyOf(keyColumns);
    }

    /** {@code WHEN MATCHED}, without a condition. */
    public Matched whenMatched() {
      return whenMatched(Condition.always());
    }

    /** {@code WHEN MATCHED AND condition}. */
    public Matched whenMatched(Condition condition) {
      return new Matched(this, condition);
    }

    /** {@code WHEN NOT MATCHED}, without a condition. */
    public NotMatched whenNotMatched() {
      return whenNotMatched(Condition.always());
    }

    /** {@code WHEN NOT MATCHED AND condition}; the condition reads the source row only. */
    public NotMatched whenNotMatched(Condition condition) {
      return new NotMatched(this, condition);
    }

    /** What a key in several source rows means; {@link SourceDuplicates#REJECT} unless set. */
    public Builder sourceDuplicates(SourceDuplicates value) {
      duplicates = Objects.requireNonNull(value, "sourceDuplicates");
      return this;
    }

    /** @throws IllegalArgumentException when there is no clause */
    public MergeSpec build() {
      if (matched.isEmpty() && notMatched.isEmpty()) {
        throw new IllegalArgumentException("a merge needs at least one WHEN clause");
      }
      return new MergeSpec(this);
    }

    /** Every source column except the key, from the source: what {@code SET *} and {@code INSERT *} assign. */
    private List<Assignment> allFromSource() {
      List<Assignment> all = new ArrayList<>();
      for (StructField field : sourceSchema.fields()) {
        if (!keyColumns.contains(field.name())) {
          all.add(Assignment.fromSource(field.name()));
        }
      }
      return all;
    }

    private void checkNotKey(List<Assignment> assignments) {
      for (Assignment assignment : assignments) {
        if (keyColumns.contains(assignment.column())) {
          throw new IllegalArgumentException("key column '" + assignment.column() + "' is assigned; the key columns are the join"
              + " and take the source row's key");
        }
      }
    }
  }

  /** A {@code WHEN MATCHED [AND cond]} waiting for its action. */
  public static final class Matched {
    private final Builder builder;
    private final Condition condition;

    private Matched(Builder builder, Condition condition) {
      this.builder = builder;
      this.condition = Objects.requireNonNull(condition, "condition");
    }

    /** {@code THEN UPDATE SET ...}: the other columns keep the target row's values. */
    public Builder thenUpdate(Assignment... assignments) {
      return thenUpdate(List.of(assignments));
    }

    /** {@code THEN UPDATE SET ...}: the other columns keep the target row's values. */
    public Builder thenUpdate(List<Assignment> assignments) {
      builder.checkNotKey(assignments);
      builder.matched.add(new MergeClause.Update(condition, assignments));
      return builder;
    }

    /** {@code THEN UPDATE SET *}: every non-key source column by name; table columns the source lacks keep their values. */
    public Builder thenUpdateAll() {
      return thenUpdate(builder.allFromSource());
    }

    /** {@code THEN DELETE}. */
    public Builder thenDelete() {
      builder.matched.add(new MergeClause.Delete(condition));
      return builder;
    }
  }

  /** A {@code WHEN NOT MATCHED [AND cond]} waiting for its action. */
  public static final class NotMatched {
    private final Builder builder;
    private final Condition condition;

    private NotMatched(Builder builder, Condition condition) {
      this.builder = builder;
      this.condition = Objects.requireNonNull(condition, "condition");
    }

    /** {@code THEN INSERT (...) VALUES (...)}: the key from the source row, the other columns not assigned null. */
    public Builder thenInsert(Assignment... assignments) {
      return thenInsert(List.of(assignments));
    }

    /** {@code THEN INSERT (...) VALUES (...)}: the key from the source row, the other columns not assigned null. */
    public Builder thenInsert(List<Assignment> assignments) {
      builder.checkNotKey(assignments);
      builder.notMatched.add(new MergeClause.Insert(condition, assignments));
      return builder;
    }

    /** {@code THEN INSERT *}: every source column by name; table columns the source lacks are null. */
    public Builder thenInsertAll() {
      return thenInsert(builder.allFromSource());
    }
  }
}
