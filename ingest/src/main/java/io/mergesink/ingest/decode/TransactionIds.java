package io.mergesink.ingest.decode;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The id that names one source transaction in all its events. Debezium's PostgreSQL connector writes
 * {@code <xid>:<LSN>} with the LSN of the event at hand, so the {@code BEGIN}, each change and the
 * {@code END} of one transaction carry different ids ({@code 762:26420248}, {@code 762:26420336}, ...,
 * {@code 762:26420640}): there the xid alone names the transaction. Other sources' ids stay as they
 * are (a MySQL GTID, a SQL Server LSN triple, a MongoDB session are not two decimal numbers).
 */
final class TransactionIds {
  private static final Pattern XID_AND_LSN = Pattern.compile("(\\d+):\\d+");

  private TransactionIds() {}

  /** The transaction {@code id} names: the xid of a PostgreSQL {@code xid:LSN}, else {@code id}. */
  static String of(String id) {
    Matcher postgres = XID_AND_LSN.matcher(id);
    return postgres.matches() ? postgres.group(1) : id;
  }
}
