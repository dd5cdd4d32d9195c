package io.mergesink.core.index;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Objects;

/**
 * Table-relative data file paths ↔ small int ids, so that a {@link RowLocation} fits in a long.
 *
 * <p>Ids start at 0. The id of a removed path is reused by a later registration, which keeps ids
 * below {@link RowLocation#MAX_FILE_ID} for as long as fewer files than that are registered at
 * once. An id is therefore only safe to reuse once nothing refers to it: remove a path only after
 * the key index holds no location in that file (all its rows deleted, or
 * {@link KeyIndex#removeFile} called).
 *
 * <p>Not thread-safe: one registry belongs to one writer thread, like its {@link KeyIndex}.
 */
public final class FileRegistry {
  private static final int ABSENT = -1;

  private final Object2IntOpenHashMap<String> idByPath = new Object2IntOpenHashMap<>();
  private final ObjectArrayList<String> pathById = new ObjectArrayList<>();
  private final IntArrayList freeIds = new IntArrayList();

  public FileRegistry() {
    idByPath.defaultReturnValue(ABSENT);
  }

  /**
   * The id of {@code path}, registering it under a new or freed id when it is not registered.
   *
   * @throws IllegalStateException when {@link RowLocation#MAX_FILE_ID} + 1 files are registered
   */
  public int idOf(String path) {
    Objects.requireNonNull(path, "path");
    int id = idByPath.getInt(path);
    if (id != ABSENT) {
      return id;
    }
    if (!freeIds.isEmpty()) {
      id = freeIds.popInt();
      pathById.set(id, path);
    } else {
      if (pathById.size() > RowLocation.MAX_FILE_ID) {
        throw new IllegalStateException("cannot register data file '" + path + "': "
            + pathById.size() + " files are registered, the limit is " + (RowLocation.MAX_FILE_ID + 1)
            + " (" + RowLocation.FILE_ID_BITS + "-bit file ids)");
      }
      id = pathById.size();
      pathById.add(path);
    }
    idByPath.put(path, id);
    return id;
  }

  /** The id of {@code path}, or -1 when it is not registered (never registers). */
  public int find(String path) {
    return idByPath.getInt(Objects.requireNonNull(path, "path"));
  }

  /**
   * The path registered under {@code id}.
   *
   * @throws IllegalArgumentException when no path is registered under {@code id}
   */
  public String path(int id) {
    String path = id >= 0 && id < pathById.size() ? pathById.get(id) : null;
    if (path == null) {
      throw new IllegalArgumentException("no data file is registered under file id " + id
          + " (" + size() + " files registered)");
    }
    return path;
  }

  /**
   * Forgets {@code path}; its id may be handed out again by {@link #idOf}. Does nothing when the
   * path is not registered. Call it only once no index refers to the file (see class comment).
   */
  public void remove(String path) {
    int id = idByPath.removeInt(Objects.requireNonNull(path, "path"));
    if (id != ABSENT) {
      pathById.set(id, null);
      freeIds.add(id);
    }
  }

  /** The number of registered paths. */
  public int size() {
    return idByPath.size();
  }
}
