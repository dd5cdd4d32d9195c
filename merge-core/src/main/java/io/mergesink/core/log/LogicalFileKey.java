package io.mergesink.core.log;

import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;

/**
 * The primary key of a logical file in action reconciliation (PROTOCOL.md, "Action
 * Reconciliation"): the path together with the DV's unique id, so that {@code remove(p, oldDv)}
 * and {@code add(p, newDv)} in one commit address different logical files.
 */
final class LogicalFileKey {
  /** Cannot occur in a URI-encoded path, so the key is unambiguous. */
  private static final char SEPARATOR = '\n';

  private LogicalFileKey() {}

  static String of(String path, DeletionVectorDescriptor dv) {
    return dv == null ? path : path + SEPARATOR + dv.uniqueId();
  }
}
