package io.mergesink.ingest.transaction;

import io.mergesink.ingest.decode.SourceInfo;
import java.util.Arrays;

/**
 * A source table as change events name it (Debezium's {@code source} block), to match with the data
 * collections of {@code END} events.
 */
public record SourceTable(String db, String schema, String table) {
  private static final String SEPARATOR = ".";

  /** The source table of a change's {@code source} block. */
  public static SourceTable of(SourceInfo source) {
    return new SourceTable(source.db(), source.schema(), source.table());
  }

  /**
   * Whether {@code name}, a data collection of an {@code END} event, is this table: {@code schema.table}
   * (PostgreSQL), {@code db.table} (MySQL), {@code db.schema.table} (SQL Server), {@code prefix.db.table} (MongoDB).
   */
  public boolean isNamed(String name) {
    if (table == null || !name.endsWith(SEPARATOR + table)) {
      return false;
    }
    String qualifier = name.substring(0, name.length() - table.length() - 1);
    return qualifier.equals(schema) || qualifier.equals(db) || qualifier.equals(db + SEPARATOR + schema)
        || qualifier.endsWith(SEPARATOR + db);
  }

  /** {@code db.schema.table}, a part the source does not give empty; {@link #parse} reads it back. */
  public String qualifiedName() {
    return String.join(SEPARATOR, part(db), part(schema), part(table));
  }

  /**
   * The source table of a {@link #qualifiedName()}.
   *
   * @throws IllegalArgumentException not three parts
   */
  public static SourceTable parse(String qualifiedName) {
    String[] parts = qualifiedName.split("\\.", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("'" + qualifiedName + "' is not a source table's db.schema.table: " + Arrays.toString(parts));
    }
    return new SourceTable(empty(parts[0]), empty(parts[1]), empty(parts[2]));
  }

  private static String part(String name) {
    return name == null ? "" : name;
  }

  private static String empty(String part) {
    return part.isEmpty() ? null : part;
  }
}
