package io.mergesink.core.log;

import java.util.Collection;
import java.util.Map;

/**
 * The reconciled state of a table at one version (PROTOCOL.md, "Action Reconciliation"): what a
 * checkpoint records. A snapshot of the table is one.
 */
public interface TableState {
  /** The table version this state is as of. */
  long version();

  Protocol protocol();

  Metadata metadata();

  /** The latest {@code txn} action per application id. */
  Map<String, SetTransaction> transactions();

  /** The live domain metadata per domain. */
  Map<String, DomainMetadata> domainMetadata();

  /** Live files keyed by their path as written in the log (URI-encoded, not decoded). */
  Map<String, AddFile> files();

  /** {@code remove} actions not cancelled by a later {@code add}, expired or not. */
  Collection<RemoveFile> tombstones();
}
