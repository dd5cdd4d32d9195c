package io.mergesink.core.mergeinto;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SQL MERGE on a keyed table, written as plainly as possible, as the tests' oracle: each source row
 * against each target row of its key, clauses in order, the first that holds decides. A key
 * with several target rows has one outcome per target row (the engine takes one of them).
 * Only the key column {@code id} (position 0, a long) is supported.
 */
final class MergeModel {
  private MergeModel() {}

  /** Per key, the row lists the table may hold after the merge. */
  record Outcomes(Map<Long, Set<List<Row>>> byKey, Map<Long, List<Row>> before) {
    Set<List<Row>> candidates(long key) {
      Set<List<Row>> candidates = byKey.get(key);
      return candidates != null ? candidates : Set.of(before.getOrDefault(key, List.of()));
    }
  }

  static Outcomes apply(MergeSpec spec, List<Row> source, Map<Long, List<Row>> target) {
    Map<Long, Row> byKey = new LinkedHashMap<>();
    for (Row row : source) {
      byKey.put((Long) row.get(spec.sourceSchema().indexOf("id")), row);
    }
    Map<Long, Set<List<Row>>> outcomes = new HashMap<>();
    byKey.forEach((key, row) -> {
      RowView s = RowView.of(spec.sourceSchema(), row);
      List<Row> rows = target.getOrDefault(key, List.of());
      Set<List<Row>> candidates = new LinkedHashSet<>();
      if (rows.isEmpty()) {
        candidates.add(notMatched(spec, s, key));
      }
      for (Row t : rows) {
        candidates.add(matched(spec, s, t, rows));
      }
      outcomes.put(key, candidates);
    });
    return new Outcomes(outcomes, target);
  }

  static List<Row> rowsOf(List<Row> source, long key) {
    return source.stream().filter(row -> row.get(0).equals(key)).toList();
  }

  private static List<Row> notMatched(MergeSpec spec, RowView s, long key) {
    for (MergeClause.Insert clause : spec.notMatchedClauses()) {
      if (clause.condition().test(s, null)) {
        Object[] values = new Object[MergeIntoModelTest.TABLE.size()];
        values[0] = key;
        for (Assignment assignment : clause.assignments()) {
          values[MergeIntoModelTest.TABLE.indexOf(assignment.column())] = assignment.value(s, null);
        }
        return List.of(Row.of(values));
      }
    }
    return List.of();
  }

  private static List<Row> matched(MergeSpec spec, RowView s, Row t, List<Row> all) {
    StructType table = MergeIntoModelTest.TABLE;
    RowView target = RowView.of(table, t);
    for (MergeClause clause : spec.matchedClauses()) {
      if (!clause.condition().test(s, target)) {
        continue;
      }
      if (clause instanceof MergeClause.Update update) {
        Object[] values = t.toArray();
        for (Assignment assignment : update.assignments()) {
          values[table.indexOf(assignment.column())] = assignment.value(s, target);
        }
        return List.of(Row.of(values));
      }
      return List.of();
    }
    return MergeIntoModelTest.sorted(new ArrayList<>(all));
  }
}
