package io.mergesink.core.log;

/** The keys that name an action in a commit line and the columns of a checkpoint. */
final class ActionNames {
  static final String PROTOCOL = "protocol";
  static final String METADATA = "metaData";
  static final String ADD = "add";
  static final String REMOVE = "remove";
  static final String CDC = "cdc";
  static final String TXN = "txn";
  static final String DOMAIN_METADATA = "domainMetadata";
  static final String COMMIT_INFO = "commitInfo";
  static final String SIDECAR = "sidecar";
  static final String CHECKPOINT_METADATA = "checkpointMetadata";

  private ActionNames() {}
}
