package io.mergesink.core.snapshot;

import io.mergesink.core.log.Action;
import io.mergesink.core.log.AddCDCFile;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.CheckpointMetadata;
import io.mergesink.core.log.CommitInfo;
import io.mergesink.core.log.DomainMetadata;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.log.RemoveFile;
import io.mergesink.core.log.SetTransaction;
import io.mergesink.core.log.Sidecar;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Mutable state of an action replay (PROTOCOL.md, "Action Reconciliation"), applied commit by
 * commit in version order, then frozen into a {@link Snapshot}.
 *
 * <p>Files are reconciled by logical key (path + DV id): a {@code remove} cancels the live file only
 * when path and DV match, so a DV update ({@code add(p, newDv)} + {@code remove(p, oldDv)} in one
 * commit, in either order) leaves {@code p} live with the new DV and a tombstone for the old one.
 * Latest protocol and metadata win; txns keep the latest version per app id; domain metadata keeps
 * the latest per domain and drops removed domains.
 */
final class LogReplay {
  private final String tableRoot;
  private Protocol protocol;
  private Metadata metadata;
  private final Map<String, AddFile> files;
  private final Map<String, RemoveFile> tombstones;
  private final Map<String, SetTransaction> transactions;
  private final Map<String, DomainMetadata> domains;
  private Long lastCheckpointVersion;
  private boolean frozen;

  LogReplay(String tableRoot) {
    this.tableRoot = tableRoot;
    this.files = new HashMap<>();
    this.tombstones = new HashMap<>();
    this.transactions = new LinkedHashMap<>();
    this.domains = new LinkedHashMap<>();
  }

  /** A replay continuing from {@code base} (copies its maps; the base is untouched). */
  LogReplay(Snapshot base) {
    this.tableRoot = base.tableRoot();
    this.protocol = base.protocol();
    this.metadata = base.metadata();
    this.files = new HashMap<>(base.files());
    this.tombstones = new HashMap<>(base.tombstoneMap());
    this.transactions = new LinkedHashMap<>(base.transactions());
    this.domains = new LinkedHashMap<>(base.domainMetadata());
    this.lastCheckpointVersion = base.lastCheckpointVersion().isPresent()
        ? base.lastCheckpointVersion().getAsLong() : null;
  }

  void checkpointLoaded(long version) {
    lastCheckpointVersion = version;
  }

  /** Applies the actions of one commit (or of a checkpoint). */
  void apply(List<Action> actions) {
    checkNotFrozen();
    for (Action action : actions) {
      if (action instanceof RemoveFile remove) {
        String key = remove.logicalKey();
        AddFile live = files.get(remove.path());
        if (live != null && live.logicalKey().equals(key)) {
          files.remove(remove.path());
        }
        tombstones.put(key, remove);
      }
    }
    for (Action action : actions) {
      if (action instanceof AddFile add) {
        files.put(add.path(), add);
        tombstones.remove(add.logicalKey());
      } else if (action instanceof Protocol p) {
        protocol = p;
      } else if (action instanceof Metadata m) {
        metadata = m;
      } else if (action instanceof SetTransaction txn) {
        transactions.put(txn.appId(), txn);
      } else if (action instanceof DomainMetadata domain) {
        if (domain.removed()) {
          domains.remove(domain.domain());
        } else {
          domains.put(domain.domain(), domain);
        }
      } else if (!(action instanceof RemoveFile) && !(action instanceof CommitInfo) && !(action instanceof Sidecar)
          && !(action instanceof CheckpointMetadata) && !(action instanceof AddCDCFile)) {
        // V2 checkpoint structure (sidecar, checkpointMetadata) and change data files take no part in replay
        // (PROTOCOL.md, "Action Reconciliation").
        throw new IllegalStateException("unhandled action type " + action.getClass().getName());
      }
    }
  }

  /** Freezes the state into a snapshot; the replay cannot be used afterwards (the snapshot owns its maps). */
  Snapshot toSnapshot(long version) {
    checkNotFrozen();
    if (protocol == null || metadata == null) {
      throw new InvalidTableException("table " + tableRoot + " at version " + version + " has no "
          + (protocol == null ? "protocol" : "metaData") + " action in its checkpoint or commits");
    }
    frozen = true;
    return new Snapshot(tableRoot, version, protocol, metadata, files, tombstones, transactions, domains,
        lastCheckpointVersion == null ? OptionalLong.empty() : OptionalLong.of(lastCheckpointVersion));
  }

  private void checkNotFrozen() {
    if (frozen) {
      throw new IllegalStateException("replay of " + tableRoot + " was already frozen into a snapshot");
    }
  }
}
