package io.mergesink.core.rowtracking;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.DomainMetadata;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.log.LogFormatException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The writer requirements of row tracking (PROTOCOL.md, "Writer Requirements for Row Tracking"):
 * while the protocol lists {@value #FEATURE} and the table does not suspend it, every {@code add} a
 * commit makes carries a {@code baseRowId} above the table's high-water mark (fresh, unique row ids)
 * and the commit's version as {@code defaultRowCommitVersion}; the commit raises the mark in the
 * {@value #DOMAIN} domain. Re-added files (a new deletion vector) keep the values of their last
 * {@code add}. While row tracking is enabled, rows MergeSink moves or updates keep their stable row
 * ids through the materialized columns ({@link MaterializedColumns}).
 */
public final class RowTracking {
  public static final String FEATURE = "rowTracking";
  /** The domain holding the high-water mark. */
  public static final String DOMAIN = "delta.rowTracking";
  public static final String ENABLE_PROPERTY = "delta.enableRowTracking";
  public static final String SUSPENDED_PROPERTY = "delta.rowTrackingSuspended";
  public static final String ROW_ID_COLUMN_PROPERTY = "delta.rowTracking.materializedRowIdColumnName";
  public static final String COMMIT_VERSION_COLUMN_PROPERTY = "delta.rowTracking.materializedRowCommitVersionColumnName";
  /** The high-water mark of a table that assigned no row id yet: the first id is 0. */
  public static final long NO_ROW_IDS = -1;
  private static final String HIGH_WATER_MARK = "rowIdHighWaterMark";
  private static final ObjectMapper JSON = new ObjectMapper();

  private RowTracking() {}

  /** Whether writers of the table assign row ids: the protocol lists the feature and {@value #SUSPENDED_PROPERTY} is not true. */
  public static boolean assignsRowIds(Protocol protocol, Metadata metadata) {
    return protocol.supportsWriterFeature(FEATURE)
        && !Boolean.parseBoolean(metadata.configuration().getOrDefault(SUSPENDED_PROPERTY, "false").trim());
  }

  /**
   * The high-water mark a table's domains record, {@link #NO_ROW_IDS} without the domain.
   *
   * @throws LogFormatException when the domain's configuration holds no {@value #HIGH_WATER_MARK}
   */
  public static long highWaterMark(Map<String, DomainMetadata> domains) {
    DomainMetadata domain = domains.get(DOMAIN);
    return domain == null ? NO_ROW_IDS : parse(domain);
  }

  /** The mark after a commit of {@code actions} on a table whose mark was {@code highWaterMark}. */
  public static long highWaterMark(List<Action> actions, long highWaterMark) {
    long mark = highWaterMark;
    for (Action action : actions) {
      if (action instanceof DomainMetadata domain && domain.domain().equals(DOMAIN) && !domain.removed()) {
        mark = Math.max(mark, parse(domain));
      }
    }
    return mark;
  }

  /**
   * {@code actions} as the commit of version {@code version}: every {@code add} without a
   * {@code baseRowId} gets the next ids above {@code highWaterMark} (one per physical row), every
   * {@code add} without a {@code defaultRowCommitVersion} gets {@code version}; when ids were
   * assigned, a {@value #DOMAIN} domain action with the new mark is appended.
   *
   * @throws IllegalStateException when an {@code add} needing ids does not say how many rows it holds
   */
  public static List<Action> assign(List<Action> actions, long version, long highWaterMark) {
    List<Action> assigned = new ArrayList<>(actions.size() + 1);
    long next = highWaterMark + 1;
    boolean raised = false;
    for (Action action : actions) {
      if (action instanceof AddFile add && (add.baseRowId() == null || add.defaultRowCommitVersion() == null)) {
        Long baseRowId = add.baseRowId();
        if (baseRowId == null) {
          long rows = add.numRecords();
          if (rows == AddFile.UNKNOWN_RECORDS) {
            throw new IllegalStateException("data file " + add.path() + " has no numRecords statistic, which row ids need");
          }
          baseRowId = next;
          next += rows;
          raised = true;
        }
        assigned.add(add.withRowTracking(baseRowId, add.defaultRowCommitVersion() == null ? version : add.defaultRowCommitVersion()));
      } else {
        assigned.add(action);
      }
    }
    if (raised && next - 1 > highWaterMark) {
      assigned.add(new DomainMetadata(DOMAIN, "{\"" + HIGH_WATER_MARK + "\":" + (next - 1) + "}", false));
    }
    return assigned;
  }

  /**
   * The configuration a new table with {@value #ENABLE_PROPERTY}{@code =true} needs besides it: unique
   * names for the materialized row id and row commit version columns (named as Spark names them).
   */
  public static Map<String, String> materializedColumnNames() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put(ROW_ID_COLUMN_PROPERTY, "_row-id-col-" + UUID.randomUUID());
    names.put(COMMIT_VERSION_COLUMN_PROPERTY, "_row-commit-version-col-" + UUID.randomUUID());
    return names;
  }

  private static long parse(DomainMetadata domain) {
    try {
      JsonNode mark = JSON.readTree(domain.configuration()).get(HIGH_WATER_MARK);
      if (mark == null || !mark.canConvertToLong()) {
        throw new LogFormatException("domain " + DOMAIN + " holds no " + HIGH_WATER_MARK + ": " + domain.configuration());
      }
      return mark.asLong();
    } catch (IOException e) {
      throw new LogFormatException("domain " + DOMAIN + " is not JSON: " + domain.configuration());
    }
  }
}
