package io.mergesink.connect.config;

import io.mergesink.core.generated.GenerationExpression;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * One entry of {@code partition.fields}: a column of the record the new table is partitioned by
 * ({@code region}), or a computed partition column, a generated column of the table
 * ({@code day=CAST(created_at AS DATE)}).
 *
 * @param column the partition column's name
 * @param expression how it is computed from a column of the record, empty for a column of the record
 */
public record PartitionField(String column, Optional<GenerationExpression> expression) {
  private static final char ASSIGN = '=';

  /**
   * The entries of the option's value.
   *
   * @throws ConfigException naming the option when an entry is empty, names a column twice, or
   *     computes it with an expression MergeSink does not compute
   */
  static List<PartitionField> parse(String option, List<String> entries) {
    List<PartitionField> fields = new ArrayList<>(entries.size());
    Set<String> seen = new HashSet<>();
    for (String entry : entries) {
      int assign = entry.indexOf(ASSIGN);
      String column = (assign < 0 ? entry : entry.substring(0, assign)).trim();
      if (column.isEmpty()) {
        throw new ConfigException(option, entries, "expected column or column=expression entries, found '" + entry + "'");
      }
      if (!seen.add(column.toLowerCase(Locale.ROOT))) {
        throw new ConfigException(option, entries, "partition column '" + column + "' is named more than once");
      }
      if (assign < 0) {
        fields.add(new PartitionField(column, Optional.empty()));
        continue;
      }
      String sql = entry.substring(assign + 1);
      GenerationExpression expression = GenerationExpression.parse(sql).orElseThrow(() -> new ConfigException(option, entries,
          "partition column '" + column + "' = " + sql.trim() + " is not an expression MergeSink computes; it computes "
              + GenerationExpression.SUPPORTED));
      fields.add(new PartitionField(column, Optional.of(expression)));
    }
    return List.copyOf(fields);
  }

  /** Validates {@code partition.fields}. */
  static final class Validator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String option, Object value) {
      if (!(value instanceof List<?> entries)) {
        throw new ConfigException(option, value, "expected a comma-separated list of partition columns");
      }
      parse(option, entries.stream().map(String::valueOf).toList());
    }

    @Override
    public String toString() {
      return "comma-separated column or column=expression";
    }
  }
}
