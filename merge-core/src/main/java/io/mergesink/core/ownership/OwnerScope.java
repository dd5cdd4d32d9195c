package io.mergesink.core.ownership;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;
import java.util.function.Predicate;

/**
 * Which files a writer's key index covers: those that may hold rows of the owners it accepts
 * (docs/design.md, "File ownership"). A writer can replace or delete only rows it indexes, so its
 * scope must take in every file that may hold one of its keys; files of anyone are always in.
 *
 * <p>The accepted owners may depend on the table (a table property can widen them), so the scope
 * is asked anew for every snapshot the writer plans against.
 */
@FunctionalInterface
public interface OwnerScope {
  /** Every live file, whatever its owners. */
  OwnerScope EVERY_FILE = new OwnerScope() {
    @Override
    public Predicate<String> owners(Snapshot snapshot) {
      return name -> true;
    }

    @Override
    public Predicate<AddFile> files(Snapshot snapshot) {
      return file -> true;
    }
  };

  /** The owner names whose rows the writer may replace in {@code snapshot}. */
  Predicate<String> owners(Snapshot snapshot);

  /** The live files of {@code snapshot} in scope: those that may hold rows of an accepted owner. */
  default Predicate<AddFile> files(Snapshot snapshot) {
    Predicate<String> owners = owners(snapshot);
    return file -> FileOwners.of(file).mayHoldRowsOf(owners);
  }

  /** The files that may hold rows of {@code owners}; every file when they are anyone. */
  static OwnerScope of(FileOwners owners) {
    return owners.isAnyone() ? EVERY_FILE : snapshot -> owners::contains;
  }
}
