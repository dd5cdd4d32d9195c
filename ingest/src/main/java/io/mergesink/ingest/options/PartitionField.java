package io.mergesink.ingest.options;

import io.mergesink.core.generatedcolumns.GenerationExpression;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One partition field of new tables ({@code partition.fields}): a column of the record
 * ({@code region}); for Delta tables a computed partition column, a generated column of the table
 * ({@code day=CAST(created_at AS DATE)}); for Iceberg tables a partition transform of a column
 * ({@code day(created_at)}, {@code bucket(16, id)}).
 *
 * @param column the partition column's name, or the column a transform reads
 * @param expression how a computed column is computed from a column of the record; empty otherwise
 * @param transform the Iceberg transform of {@code column}; empty otherwise
 */
public record PartitionField(String column, Optional<GenerationExpression> expression, Optional<PartitionTransform> transform) {
  private static final char ASSIGN = '=';

  public PartitionField {
    if (expression.isPresent() && transform.isPresent()) {
      throw new IllegalArgumentException("partition field '" + column + "' is either computed or a transform, not both");
    }
  }

  /** A column of the record, as it is. */
  public static PartitionField identity(String column) {
    return new PartitionField(column, Optional.empty(), Optional.empty());
  }

  /**
   * The fields of {@code column}, {@code column=expression} or {@code transform(...)} entries. An
   * entry's commas inside parentheses do not separate entries, so the pieces of {@code bucket(16, id)}
   * that a comma-separated list option splits are joined again.
   *
   * @throws IllegalArgumentException an entry is empty, names a column twice, or computes it in a way
   *     MergeSink does not (the message says which)
   */
  public static List<PartitionField> parse(List<String> entries) {
    List<PartitionField> fields = new ArrayList<>(entries.size());
    Set<String> seen = new HashSet<>();
    for (String entry : topLevelEntries(entries)) {
      PartitionField field = parse(entry);
      String name = field.transform().map(transform -> transform.fieldName(field.column())).orElse(field.column());
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("partition field '" + name + "' is named more than once");
      }
      fields.add(field);
    }
    return List.copyOf(fields);
  }

  private static PartitionField parse(String entry) {
    int assign = entry.indexOf(ASSIGN);
    if (assign < 0 && entry.indexOf('(') >= 0) {
      PartitionTransform.Applied applied = PartitionTransform.parse(entry);
      return new PartitionField(applied.column(), Optional.empty(), Optional.of(applied.transform()));
    }
    String column = (assign < 0 ? entry : entry.substring(0, assign)).trim();
    if (column.isEmpty()) {
      throw new IllegalArgumentException("expected column, column=expression or transform(column) entries, found '" + entry + "'");
    }
    if (assign < 0) {
      return identity(column);
    }
    String sql = entry.substring(assign + 1);
    GenerationExpression expression = GenerationExpression.parse(sql).orElseThrow(() -> new IllegalArgumentException(
        "partition column '" + column + "' = " + sql.trim() + " is not an expression MergeSink computes; it computes "
            + GenerationExpression.SUPPORTED));
    return new PartitionField(column, Optional.of(expression), Optional.empty());
  }

  /** The field as {@code partition.fields} writes it. */
  @Override
  public String toString() {
    return transform.map(applied -> applied.call(column))
        .orElseGet(() -> expression.map(computed -> column + "=" + computed.sql()).orElse(column));
  }

  /** {@code pieces} joined with commas and split again at the commas outside parentheses. */
  private static List<String> topLevelEntries(List<String> pieces) {
    String joined = String.join(",", pieces);
    List<String> entries = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < joined.length(); i++) {
      char c = joined.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        entries.add(joined.substring(start, i).trim());
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException("unbalanced parentheses in '" + joined + "'");
    }
    if (!joined.isBlank()) {
      entries.add(joined.substring(start).trim());
    }
    return entries;
  }
}
