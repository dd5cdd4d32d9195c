package io.mergesink.ingest.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.data.Row;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hard deletes of tables ordered by a source position, traced in the table's log so that every
 * task knows them, not only the one that deleted (docs/design.md, "Ordering and soft deletes"): a
 * commit whose change set hard-deleted keys names them with their sequences in its
 * {@code commitInfo} tag {@value #TAG}. Before a task decides a change set of such a table it reads
 * the tags of the commits it has not read yet into its {@link DeletedKeys}, the first time back to
 * {@value #LOOKBACK} commits. So an older change of a key another task deleted (a lagging partition
 * of a topic that grew) is skipped instead of bringing the row back.
 */
final class DeleteTraces {
  static final String TAG = "mergesink.deletedKeys";
  /** How many commits a task reads back when it first decides for a table (after a start or a rebalance). */
  static final int LOOKBACK = 100;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TRUNCATED = "truncated";
  private static final String KEYS = "keys";

  /** Per table, the version up to which the traces were read. */
  private final Map<String, Long> readThrough = new HashMap<>();

  /**
   * The tag of a change set that truncated the table first (when {@code truncated}), then deleted
   * {@code deleted}: per key its sequence (a source position) and time, {@code [sequence, time]}.
   */
  static String tag(boolean truncated, Map<Row, DeletedKeys.Delete> deleted) {
    ObjectNode tag = JSON.createObjectNode();
    if (truncated) {
      tag.put(TRUNCATED, true);
    }
    ObjectNode keys = tag.putObject(KEYS);
    deleted.forEach((key, delete) -> {
      ArrayNode value = keys.putArray(DeletedKeys.text(key)).add(((Number) delete.sequence()).longValue());
      if (delete.time() != null) {
        value.add(delete.time());
      }
    });
    return tag.toString();
  }

  /**
   * Makes {@code builder}'s change set, decided for {@code keys} with the traces read through version
   * {@code tracedThrough} ({@link #catchUp}), land only while no later commit traces a delete of one
   * of them (one that landed after the traces were read, which the decision could not know).
   */
  static void guard(ChangeSet.Builder builder, long tracedThrough, Collection<Row> keys) {
    Set<String> texts = new HashSet<>();
    keys.forEach(key -> texts.add(DeletedKeys.text(key)));
    builder.decidedBeforeTag(tracedThrough, TAG, tag -> tracesAny(tag, texts));
  }

  /** Whether the trace {@code tag} names one of {@code keys}, or a truncate (which deletes them all). */
  private static boolean tracesAny(String tag, Set<String> keys) {
    try {
      JsonNode trace = JSON.readTree(tag);
      for (Iterator<String> traced = trace.path(KEYS).fieldNames(); traced.hasNext(); ) {
        if (keys.contains(traced.next())) {
          return true;
        }
      }
      return trace.path(TRUNCATED).asBoolean(false);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable " + TAG + " tag: " + tag, e);
    }
  }

  /**
   * Reads the traces of the commits of {@code sink}'s table up to the version the sink holds into
   * {@code deleted}, and returns that version: what {@link #guard} checks from. The version is read
   * once, since a table's version may move between two calls (another task's commit).
   */
  long catchUp(TableSink sink, DeletedKeys deleted) throws IOException {
    long version = sink.version();
    Long through = readThrough.get(sink.name());
    for (long next = through == null ? sink.firstOfLastCommits(version, LOOKBACK) : through + 1; next <= version; next++) {
      Optional<String> tag = sink.commitTag(next, TAG);
      if (tag.isPresent()) {
        apply(tag.get(), deleted);
      }
      readThrough.put(sink.name(), next);
    }
    return version;
  }

  private static void apply(String tag, DeletedKeys deleted) throws IOException {
    JsonNode trace = JSON.readTree(tag);
    if (trace.path(TRUNCATED).asBoolean(false)) {
      deleted.clear();
    }
    for (Iterator<Map.Entry<String, JsonNode>> keys = trace.path(KEYS).fields(); keys.hasNext(); ) {
      Map.Entry<String, JsonNode> key = keys.next();
      JsonNode time = key.getValue().path(1);
      deleted.deleted(key.getKey(), new DeletedKeys.Delete(key.getValue().path(0).asLong(), time.isNumber() ? time.asLong() : null));
    }
  }
}
