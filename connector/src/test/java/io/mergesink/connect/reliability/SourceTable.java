package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.CustomerTable.SourcePosition;
import io.mergesink.ingest.testing.Expected;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The source table as its changes made it, in source order: its rows now, and what each CDC mode's
 * table keeps of its past (docs/design.md, "The reliability matrix"): the newest LSN of every live
 * key ({@code upsert.order.by=source.lsn}), when each deleted key was deleted ({@code
 * delete.mode=soft}), and every version each key went through ({@code write.mode=history}).
 */
final class SourceTable {
  static final String SOURCE_LSN = "__source_lsn";
  static final String DELETED = "__deleted";
  static final String DELETED_AT = "__deleted_at";
  static final String VALID_FROM = "__valid_from";
  static final String VALID_TO = "__valid_to";
  static final String CURRENT = "__current";
  static final String VALID_TO_SOURCE_LSN = "__valid_to_source_lsn";

  /**
   * One version of a key in a history table: its row, from when and until when (null while
   * current), and the LSNs of the changes that began and ended it.
   */
  private static final class Version {
    private final Map<String, Object> columns;
    private final long validFrom;
    private final long lsn;
    private Long validTo;
    private Long endLsn;

    private Version(Map<String, Object> columns, long validFrom, long lsn) {
      this.columns = columns;
      this.validFrom = validFrom;
      this.lsn = lsn;
    }

    private Map<String, Object> row() {
      Map<String, Object> row = new LinkedHashMap<>(columns);
      row.put(VALID_FROM, validFrom);
      row.put(VALID_TO, validTo);
      row.put(CURRENT, validTo == null);
      row.put(SOURCE_LSN, lsn);
      row.put(VALID_TO_SOURCE_LSN, endLsn);
      return row;
    }
  }

  /** What identifies a row of a history table: the key and when its version began. */
  record VersionId(long id, long validFrom) {
    @Override
    public String toString() {
      return id + "@" + validFrom;
    }
  }

  private final Map<Long, Map<String, Object>> rows = new HashMap<>();
  private final Map<Long, Long> lsns = new HashMap<>();
  private final Map<Long, Long> deletedAt = new HashMap<>();
  private final Map<Long, List<Version>> versions = new HashMap<>();

  /** Inserts or updates {@code id} to {@code columns}, a change made {@code at}. */
  void upsert(long id, Map<String, Object> columns, SourcePosition at) {
    rows.put(id, columns);
    lsns.put(id, at.lsn());
    deletedAt.remove(id);
    close(id, at);
    versions.computeIfAbsent(id, key -> new ArrayList<>()).add(new Version(columns, at.tsMicros(), at.lsn()));
  }

  /** Deletes {@code id} (which the table has), a change made {@code at}. */
  void delete(long id, SourcePosition at) {
    rows.remove(id);
    lsns.remove(id);
    deletedAt.put(id, at.tsMicros());
    close(id, at);
  }

  /**
   * Empties the table, a change made {@code at}. A soft-deleting table is emptied too (a truncate
   * removes its rows, docs/design.md "Ordering and soft deletes"); a history table closes every
   * current version.
   */
  void truncate(SourcePosition at) {
    rows.keySet().forEach(id -> close(id, at));
    rows.clear();
    lsns.clear();
    deletedAt.clear();
  }

  Set<Long> ids() {
    return Set.copyOf(rows.keySet());
  }

  boolean contains(long id) {
    return rows.containsKey(id);
  }

  /** The rows of the source table now: id → row. */
  Expected<Long> upserts() {
    return Expected.upserts(rows);
  }

  /** The rows of an ordered table: the source table's, each with the newest LSN of its key. */
  Expected<Long> ordered() {
    Map<Long, Map<String, Object>> ordered = new HashMap<>();
    rows.forEach((id, columns) -> {
      Map<String, Object> row = new LinkedHashMap<>(columns);
      row.put(SOURCE_LSN, lsns.get(id));
      ordered.put(id, row);
    });
    return Expected.upserts(ordered);
  }

  /**
   * The rows of a table whose changes update it partially (Paimon's {@code partial-update}): a
   * column a change sets to null keeps an older value, so of each row only the columns that are
   * not null in the source are certain, and they hold the source's values (the newest change of a
   * key writes every column it does not leave null).
   */
  Expected<Long> partiallyUpdated() {
    Map<Long, Map<String, Object>> withLsns = new HashMap<>();
    rows.forEach((id, columns) -> {
      Map<String, Object> row = new LinkedHashMap<>(columns);
      row.put(SOURCE_LSN, lsns.get(id));
      withLsns.put(id, row);
    });
    return Expected.upserts(withLsns).nonNullColumnsOnly();
  }


  /**
   * The rows of a soft-deleting table: the source table's rows, not deleted; and every deleted key,
   * deleted when its last delete was made. Of a deleted row only the key and the marks are certain:
   * it keeps the last version that landed before the delete, which coalescing decides; and a key
   * whose delete landed before any version of it has no row (without {@code upsert.order.by} a
   * delete of a key the table does not hold keeps nothing, docs/design.md "Ordering and soft
   * deletes"). A key that never existed has none either way. Live rows hold the newest LSN of
   * their key.
   */
  Expected<Long> softDeletes() {
    Map<Long, Map<String, Object>> soft = new HashMap<>();
    rows.forEach((id, columns) -> {
      Map<String, Object> row = new LinkedHashMap<>(columns);
      row.put(SOURCE_LSN, lsns.get(id));
      row.put(DELETED, false);
      row.put(DELETED_AT, null);
      soft.put(id, row);
    });
    deletedAt.forEach((id, at) -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put(CustomerTable.ID, id);
      row.put(DELETED, true);
      row.put(DELETED_AT, at);
      soft.put(id, row);
    });
    return Expected.upserts(soft).partialWhere(SourceTable::isDeleted).optionalWhere(SourceTable::isDeleted);
  }

  private static boolean isDeleted(Map<String, Object> row) {
    return Boolean.TRUE.equals(row.get(DELETED));
  }

  /**
   * The rows of a history table: every version of every key, closed when the key next changed, the
   * last one current unless deleted, with the LSNs that began and ended each version.
   */
  Expected<VersionId> history() {
    Map<VersionId, Map<String, Object>> all = new HashMap<>();
    versions.forEach((id, list) -> list.forEach(version -> all.put(new VersionId(id, version.validFrom), version.row())));
    return Expected.of("primary key " + CustomerTable.ID + " and " + VALID_FROM,
        row -> new VersionId((Long) row.get(CustomerTable.ID), (Long) row.get(VALID_FROM)), all);
  }

  private void close(long id, SourcePosition at) {
    List<Version> list = versions.get(id);
    if (list != null && list.get(list.size() - 1).validTo == null) {
      list.get(list.size() - 1).validTo = at.tsMicros();
      list.get(list.size() - 1).endLsn = at.lsn();
    }
  }
}
