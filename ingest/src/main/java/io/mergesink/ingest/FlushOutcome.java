package io.mergesink.ingest;

import io.mergesink.ingest.errors.RetriableStorageException;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Map;
import java.util.Optional;

/**
 * How a flush ended, short of a fatal error.
 *
 * @param seeks partitions another task took over (fenced): their changes were dropped, and their
 *     consumer must go back to these offsets (what their tables hold, + 1). Until the front end
 *     reports {@link IngestEngine#seeksApplied()}, the engine ignores their records. A front end
 *     that cannot seek (Kafka Streams) must give the partitions up instead.
 * @param failure the first storage failure: the changes of the tables it hit stay buffered and are
 *     committed by a later flush
 */
public record FlushOutcome(Map<KafkaPartition, Long> seeks, Optional<RetriableStorageException> failure) {
  /** Nothing to report: every pending change is in its table. */
  public static final FlushOutcome COMPLETE = new FlushOutcome(Map.of(), Optional.empty());

  public FlushOutcome {
    seeks = Map.copyOf(seeks);
  }
}
