package io.mergesink.core.ownership;

import io.mergesink.core.log.AddFile;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The owners whose rows a data file may hold (docs/design.md, "File ownership"): the names in its
 * {@value #TAG} tag, or <em>anyone</em> for a file without the tag (written by another tool, it may
 * hold any key). Immutable.
 *
 * <p>The rule every writer keeps: a file's owners name every owner whose rows it holds. A file of
 * new rows is owned by the owners of the change set it writes; a file that also carries rows of other
 * files (a copy-on-write rewrite, a compaction) is owned by the union of their owners and the change
 * set's, and by anyone as soon as one of them is.
 */
public final class FileOwners {
  /** The {@code add.tags} key holding a file's owners, comma-separated (the connector's Kafka partitions). */
  public static final String TAG = "mergesink.partitions";
  private static final String SEPARATOR = ",";
  private static final FileOwners ANYONE = new FileOwners(null);

  /** Sorted owner names; null for anyone. */
  private final Set<String> names;

  private FileOwners(Set<String> names) {
    this.names = names;
  }

  /** Owners nobody declared: files of such a writer may hold any key. */
  public static FileOwners anyone() {
    return ANYONE;
  }

  /**
   * Exactly {@code names}.
   *
   * @throws IllegalArgumentException a name is empty or contains the separator {@value #SEPARATOR}
   */
  public static FileOwners of(Collection<String> names) {
    Set<String> sorted = new TreeSet<>();
    for (String name : names) {
      if (name.isEmpty() || name.contains(SEPARATOR)) {
        throw new IllegalArgumentException("an owner name must be non-empty and without '" + SEPARATOR + "', found '" + name + "'");
      }
      sorted.add(name);
    }
    return new FileOwners(Collections.unmodifiableSet(sorted));
  }

  /** The owners {@code file}'s tag names; anyone when it has no {@value #TAG} tag. */
  public static FileOwners of(AddFile file) {
    String tag = file.tags() == null ? null : file.tags().get(TAG);
    if (tag == null) {
      return ANYONE;
    }
    Set<String> parsed = new TreeSet<>();
    for (String name : tag.split(SEPARATOR)) {
      if (!name.isEmpty()) {
        parsed.add(name);
      }
    }
    return new FileOwners(Collections.unmodifiableSet(parsed));
  }

  /** Whether any key may be in the file (no owners recorded). */
  public boolean isAnyone() {
    return names == null;
  }

  /** The owners of a file holding rows of both: anyone when either is. */
  public FileOwners union(FileOwners other) {
    if (isAnyone() || other.isAnyone()) {
      return ANYONE;
    }
    if (names.containsAll(other.names)) {
      return this;
    }
    Set<String> union = new TreeSet<>(names);
    union.addAll(other.names);
    return new FileOwners(Collections.unmodifiableSet(union));
  }

  /** Whether the file may hold rows of an owner {@code owners} accepts: always for anyone. */
  public boolean mayHoldRowsOf(Predicate<String> owners) {
    return isAnyone() || names.stream().anyMatch(owners);
  }

  /** Whether {@code name} is one of the owners (false for anyone: no name is recorded). */
  public boolean contains(String name) {
    return !isAnyone() && names.contains(name);
  }

  /** The {@code add.tags} recording these owners: empty for anyone, so that the file has no tag. */
  public Map<String, String> tags() {
    return isAnyone() ? Map.of() : Map.of(TAG, String.join(SEPARATOR, names));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FileOwners owners && Objects.equals(names, owners.names);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(names);
  }

  @Override
  public String toString() {
    return isAnyone() ? "anyone" : names.toString();
  }
}
