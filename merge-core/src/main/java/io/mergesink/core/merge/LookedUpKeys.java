package io.mergesink.core.merge;

import io.mergesink.core.changes.KeyedChanges;
import io.mergesink.core.commit.StagedCommit;
import io.mergesink.core.data.Row;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.index.LiveRowIndex;
import io.mergesink.core.log.AddFile;
import java.io.IOException;

/**
 * The keys a keyed plan looked up in the index (its upserts', deletes' and previous keys), probed in
 * the files a concurrent commit added: only a new row of one of them invalidates the plan
 * (docs/design.md, "Concurrency"). The set is built on the first probe; most commits never lose a race.
 */
public final class LookedUpKeys implements StagedCommit.KeyProbe {
  private final LiveRowIndex index;
  private final KeyedChanges changes;
  private KeySet keys;

  public LookedUpKeys(LiveRowIndex index, KeyedChanges changes) {
    this.index = index;
    this.changes = changes;
  }

  @Override
  public boolean holdsAny(AddFile added) throws IOException {
    if (keys == null) {
      keys = collect();
    }
    return index.holdsAny(added, keys);
  }

  private KeySet collect() {
    KeySet set = KeySet.create(index.keySchema(), changes.upsertKeys().length + changes.deleteKeys().length);
    for (int i = 0; i < changes.upsertKeys().length; i++) {
      set.add(changes.upsertKeys()[i]);
      Row previous = changes.previousKey(i);
      if (previous != null) {
        set.add(previous);
      }
    }
    for (Row key : changes.deleteKeys()) {
      set.add(key);
    }
    return set;
  }
}
