package io.mergesink.ingest.options;

import io.mergesink.core.generatedcolumns.GenerationExpression;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One partition column of new tables ({@code partition.fields}): a column of the record
 * ({@code region}), or a computed partition column, a generated column of the table
 * ({@code day=CAST(created_at AS DATE)}).
 *
 * @param column the partition column's name
 * @param expression how it is computed from a column of the record, empty for a column of the record
 */
public record PartitionField(String column, Optional<GenerationExpression> expression) {
  private static final char ASSIGN = '=';

  /**
   * The fields of {@code column} or {@code column=expression} entries.
   *
   * @throws IllegalArgumentException an entry is empty, names a column twice, or computes it with an
   *     expression MergeSink does not compute (the message says which)
   */
  public static List<PartitionField> parse(List<String> entries) {
    List<PartitionField> fields = new ArrayList<>(entries.size());
    Set<String> seen = new HashSet<>();
    for (String entry : entries) {
      int assign = entry.indexOf(ASSIGN);
      String column = (assign < 0 ? entry : entry.substring(0, assign)).trim();
      if (column.isEmpty()) {
        throw new IllegalArgumentException("expected column or column=expression entries, found '" + entry + "'");
      }
      if (!seen.add(column.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("partition column '" + column + "' is named more than once");
      }
      if (assign < 0) {
        fields.add(new PartitionField(column, Optional.empty()));
        continue;
      }
      String sql = entry.substring(assign + 1);
      GenerationExpression expression = GenerationExpression.parse(sql).orElseThrow(() -> new IllegalArgumentException(
          "partition column '" + column + "' = " + sql.trim() + " is not an expression MergeSink computes; it computes "
              + GenerationExpression.SUPPORTED));
      fields.add(new PartitionField(column, Optional.of(expression)));
    }
    return List.copyOf(fields);
  }
}
