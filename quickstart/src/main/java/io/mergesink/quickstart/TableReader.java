package io.mergesink.quickstart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads the demo's table while the sink writes it, in the table's own format: its version, live
 * rows and the Kafka offsets the sink recorded in it, and tells the user how to read it elsewhere.
 *
 * <p>The demo owns the reader and closes it; closing it leaves the table as it is.
 */
interface TableReader extends AutoCloseable {
  /** The format's name for the console ("Delta", "Iceberg", "Paimon"). */
  String format();

  /** The table's path or URI. */
  String path();

  /** Whether the table exists (the sink creates it with its first commit). */
  boolean exists();

  /** The table's latest state, empty while the sink has not created it. */
  Optional<TableState> state();

  /**
   * The column names, then every live row, its values formatted for the console (dates and
   * timestamps as ISO-8601, decimals as plain numbers).
   */
  List<List<String>> rows();

  /** Where the table records the Kafka offsets, for the summary. */
  String positionsRecordedAs();

  /**
   * How to read the table with Spark and other engines, one console line each.
   *
   * @param localPath the table as a local directory
   */
  List<String> howToRead(String localPath);

  /** Up to {@code limit} lines of {@link #rows()} ordered by their first column, after the header line. */
  default List<List<String>> sample(int limit) {
    List<List<String>> lines = rows();
    List<List<String>> rows = new ArrayList<>(lines.subList(1, lines.size()));
    // shorter first, then by text: numeric ids sort as numbers
    rows.sort(Comparator.comparing((List<String> row) -> row.get(0), Comparator
        .comparingInt(String::length).thenComparing(Comparator.naturalOrder())));
    List<List<String>> sample = new ArrayList<>();
    sample.add(lines.get(0));
    sample.addAll(rows.subList(0, Math.min(limit, rows.size())));
    return sample;
  }

  @Override
  void close();
}
