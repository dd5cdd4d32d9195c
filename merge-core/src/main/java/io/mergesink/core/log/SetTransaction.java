package io.mergesink.core.log;

import java.util.Objects;

/**
 * The {@code txn} action (PROTOCOL.md, "Transaction Identifiers"): the last {@code version} an
 * application committed. MergeSink stores Kafka offsets here, one per partition.
 *
 * @param lastUpdated milliseconds since the epoch, or null
 */
public record SetTransaction(String appId, long version, Long lastUpdated) implements Action {
  public SetTransaction {
    Objects.requireNonNull(appId, "appId");
  }
}
