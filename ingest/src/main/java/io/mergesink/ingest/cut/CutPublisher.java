package io.mergesink.ingest.cut;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.buffer.PartitionBuffer;
import io.mergesink.ingest.config.TransactionOptions;
import io.mergesink.ingest.cut.CutCandidates.End;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.TableFormat;
import io.mergesink.ingest.position.PartitionPositions;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.table.TableCatalog;
import io.mergesink.ingest.table.TableSink;
import io.mergesink.ingest.transaction.SourceTable;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes consistent cuts (docs/transactions.md, "Consistent cuts"), in the task that holds the
 * transaction topic's partition: for each {@linkplain CutCandidates candidate} after the last one
 * published, the version of every table under the root that holds exactly the source transactions up
 * to it, found from the tables' commit tags ({@link CutGate#CUT_TAG}); once every table has one, a row
 * per table goes into the cut table {@value #TABLE} under the root, buffered in the transaction topic
 * partition's buffer with that partition's position at the candidate's {@code END} offset, so the cut
 * table's commits are exactly once as any table's.
 *
 * <p>A table is at candidate C at its newest version tagged at or before C, when no later version is
 * untagged and, if the tag is older than C, no transaction after the tag and up to C changed one of its
 * source tables ({@link CutGate#SOURCES_TAG}). Engine thread only.
 */
public final class CutPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(CutPublisher.class);
  /** The cut table's name under the table root. */
  public static final String TABLE = "mergesink_cuts";
  public static final String CUT = "cut_offset";
  public static final String TABLE_NAME = "table_name";
  public static final String SOURCE_POSITION = "source_position";
  public static final String SOURCE_TS_MS = "source_ts_ms";
  public static final String VERSION = "table_version";
  private static final StructType KEY = StructType.of(new StructField(CUT, PrimitiveType.LONG, false),
      new StructField(TABLE_NAME, PrimitiveType.STRING, false));
  private static final StructType VALUE = StructType.of(new StructField(CUT, PrimitiveType.LONG, false),
      new StructField(TABLE_NAME, PrimitiveType.STRING, false), new StructField(SOURCE_POSITION, PrimitiveType.STRING, true),
      new StructField(SOURCE_TS_MS, PrimitiveType.LONG, true), new StructField(VERSION, PrimitiveType.LONG, false));

  /** A cut: the candidate's {@code END} and each table's version (what time travel names it by) there. */
  public record Cut(End end, Map<String, Long> versions) {}

  private final CutCandidates candidates;
  private final TableFormat format;
  private final TransactionOptions options;
  /** The newest cut this publisher staged, and each table's version there; -1 before the first. */
  private long lastCut = -1;
  private Map<String, Long> lastVersions = Map.of();
  private volatile long lagMillis;

  public CutPublisher(CutCandidates candidates, TableFormat format, TransactionOptions options) {
    this.candidates = candidates;
    this.format = format;
    this.options = options;
  }

  /**
   * The source time from the newest cut published to the newest cut a table's commit is tagged with (the
   * newest transaction committed, to a cut interval): how far readers at the newest cut are behind the
   * tables. 0 before the first cut and in a task that does not publish; may be read from any thread.
   */
  public long lagMillis() {
    return lagMillis;
  }

  /**
   * Whether {@code partition} is of a transaction topic: its records are not changes, and its position is
   * the cuts published.
   */
  public boolean publishesFor(KafkaPartition partition) {
    return options.transactionTopicOf(partition.topic()).equals(partition.topic());
  }

  /**
   * Buffers the rows of the cuts found since the last one published, if this task holds the transaction
   * topic's partition; its position moves to the newest.
   */
  public void stage(PartitionPositions positions, Map<KafkaPartition, PartitionBuffer> buffers, TableCatalog catalog,
      TransactionEnds ends) throws IOException {
    positions.partitions().stream().filter(this::publishesFor).forEach(held -> ends.follow(held, 0)); // every end the topic keeps
    KafkaPartition topic = candidates.topic();
    if (topic == null || !positions.holds(topic) || !buffers.containsKey(topic)) {
      return;
    }
    List<String> listed = catalog.discover();
    List<String> tables = listed.stream().filter(table -> !isCutTable(table)).toList();
    // once it exists, the cut table is written under the name the catalog lists it by, which its positions are read under
    String cutTable = listed.stream().filter(CutPublisher::isCutTable).findFirst().orElse(TABLE);
    for (Cut cut : cuts(positions.lastProcessed(topic), tables)) {
      for (ChangeEvent row : rows(cut, topic)) {
        TableSink sink = catalog.forEvent(cutTable, row);
        buffers.get(topic).add(cutTable, sink.prepare(row));
      }
      positions.processed(topic, cut.end().offset());
      lastCut = cut.end().offset();
      lastVersions = cut.versions();
      LOG.info("Cut at {} (transaction {}, source time {}): {}", cut.end().offset(), cut.end().id(),
          cut.end().event().timestampMs(), cut.versions());
    }
  }

  /** The cuts after offset {@code after}, oldest first: the candidates at which every one of {@code tables} is. */
  List<Cut> cuts(long after, List<String> tables) throws IOException {
    List<Cut> cuts = new ArrayList<>();
    List<End> pending = candidates.candidates(after);
    if (pending.isEmpty()) {
      lagMillis = 0; // no commit is tagged past the newest cut
      return cuts;
    }
    Map<String, FormatTable> opened = new LinkedHashMap<>();
    for (String table : tables) {
      Optional<FormatTable> found = format.open(table, List.of(), List.of());
      if (found.isPresent()) {
        found.get().refresh(); // a catalog may hand out the table as it was loaded before: other tasks commit to it
        opened.put(table, found.get());
      }
    }
    long newestTagged = after;
    for (FormatTable table : opened.values()) {
      newestTagged = Math.max(newestTagged, newestTag(table));
    }
    for (End candidate : pending) {
      Map<String, Long> versions = new LinkedHashMap<>();
      for (Map.Entry<String, FormatTable> table : opened.entrySet()) {
        OptionalLong version = versionAt(table.getKey(), table.getValue(), candidate);
        if (version.isEmpty()) {
          break;
        }
        versions.put(table.getKey(), version.getAsLong());
      }
      if (versions.size() == opened.size()) {
        cuts.add(new Cut(candidate, versions));
      }
    }
    End published = candidates.end(cuts.isEmpty() ? after : cuts.get(cuts.size() - 1).end().offset());
    End tagged = candidates.end(newestTagged);
    lagMillis = published == null || tagged == null ? 0 : Math.max(0, tagged.event().timestampMs() - published.event().timestampMs());
    return cuts;
  }

  /** The cut the newest commit of {@code table} that is not a compaction is tagged with; -1 when untagged. */
  private static long newestTag(FormatTable table) throws IOException {
    for (long version = table.version(); version >= 0; version--) {
      Optional<String> tag = table.commitTag(version, CutGate.CUT_TAG);
      if (tag.isPresent()) {
        return Long.parseLong(tag.get());
      }
      if (!table.rewritesOnly(version)) {
        return -1;
      }
    }
    return -1;
  }

  /** The version of {@code table} at {@code candidate} (as time travel names it), if it has one. */
  private OptionalLong versionAt(String name, FormatTable table, End candidate) throws IOException {
    for (long version = table.version(); version >= 0; version--) {
      Optional<String> tag = table.commitTag(version, CutGate.CUT_TAG);
      if (tag.isEmpty() && table.rewritesOnly(version)) {
        continue; // a compaction: the rows of the version before
      }
      if (tag.isEmpty()) {
        return OptionalLong.empty(); // a commit not at a candidate (a transaction in pieces, no cuts yet): no cut reaches past it
      }
      long at = Long.parseLong(tag.get());
      if (at > candidate.offset()) {
        continue;
      }
      OptionalLong id = table.readableId(version);
      // at the last cut staged at this version, the table held every transaction up to it: only those since count
      long since = id.isPresent() && Long.valueOf(id.getAsLong()).equals(lastVersions.get(name)) ? Math.max(at, lastCut) : at;
      if (since < candidate.offset() && changedSince(table.commitTag(version, CutGate.SOURCES_TAG).orElse(""), since, candidate)) {
        return OptionalLong.empty();
      }
      return id;
    }
    return OptionalLong.empty();
  }

  /** Whether a transaction after {@code at} and up to {@code candidate} changed one of {@code sources}; true when not known. */
  private boolean changedSince(String sources, long at, End candidate) {
    if (candidates.end(at) == null) {
      return true; // ends before the first read: cannot tell
    }
    List<SourceTable> tables = sources.isEmpty() ? List.of()
        : Arrays.stream(sources.split(",")).map(SourceTable::parse).toList();
    for (End end : candidates.ends(at, candidate.offset())) {
      for (String collection : end.event().tableCounts().keySet()) {
        if (tables.stream().anyMatch(table -> table.isNamed(collection))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether {@code table}, as the catalog lists it, is the cut table: its commits carry no cut, and counted
   * among the tables it would stop every cut after the first. A catalog names it in its namespace
   * ({@code default/mergesink_cuts}) when the table names have one.
   */
  static boolean isCutTable(String table) {
    return table.equals(TABLE) || table.endsWith("/" + TABLE);
  }

  private static List<ChangeEvent> rows(Cut cut, KafkaPartition topic) {
    List<ChangeEvent> rows = new ArrayList<>();
    End end = cut.end();
    cut.versions().forEach((table, version) -> rows.add(new ChangeEvent(Op.UPSERT, Row.of(end.offset(), table), KEY,
        Row.of(end.offset(), table, end.id(), end.event().timestampMs(), version), VALUE, SourceInfo.NONE,
        end.event().timestampMs(), topic.topic(), topic.topic(), topic.partition(), end.offset(), "c")));
    return rows;
  }
}
