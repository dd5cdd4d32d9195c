package io.mergesink.core.merge;

import io.mergesink.core.data.Row;
import io.mergesink.core.datafiles.ChangeDataFiles.ChangeType;
import io.mergesink.core.datafiles.ChangeDataFiles;
import io.mergesink.core.datafiles.NewFiles;
import io.mergesink.core.index.KeySet;
import io.mergesink.core.layout.DataLayout;
import io.mergesink.core.log.AddCDCFile;
import io.mergesink.core.protocol.ProtocolSupport;
import io.mergesink.core.scan.LogicalFileReader;
import io.mergesink.core.scan.TableScan;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The Change Data Feed of a keyed table's commits (docs/design.md, "Change Data Feed"): when the
 * table asks for it, a commit that replaces or deletes rows carries {@code cdc} actions for change
 * data files holding every change it makes. A live row it removes is an {@code update_preimage}
 * when its key is upserted, else a {@code delete}; an upsert is an {@code update_postimage} when it
 * replaced a row, else an {@code insert}. A commit that only inserts writes none: readers take
 * its {@code add}s as the inserted rows (PROTOCOL.md, "Change Data Files"), so blind inserts cost
 * nothing extra. The merge operations supply the removed rows, which they read by position.
 */
public final class ChangeFeed {
  private final NewFiles newFiles;
  private final int[] keyOrdinals;
  private final StructType keySchema;

  public ChangeFeed(NewFiles newFiles, int[] keyOrdinals, StructType keySchema) {
    this.newFiles = newFiles;
    this.keyOrdinals = keyOrdinals.clone();
    this.keySchema = keySchema;
  }

  /** Whether commits to {@code snapshot}'s table must carry change data (PROTOCOL.md, "Writer Requirements for AddCDCFile"). */
  static boolean enabled(Snapshot snapshot) {
    return ProtocolSupport.writesChangeData(snapshot.protocol(), snapshot.metadata());
  }

  /**
   * Writes the change data of a commit that removes the rows {@code touched} finds, writes
   * {@code upserts} and appends {@code appends}: reads those rows by position, only the row groups
   * holding them.
   */
  Written write(Snapshot snapshot, TouchedRows touched, List<Row> upserts, Row[] upsertKeys, List<Row> appends) throws IOException {
    if (touched.rowCount() == 0) {
      return Written.NONE;
    }
    LogicalFileReader reader = LogicalFileReader.of(newFiles.storage(), snapshot, List.of());
    List<Row> removed = new ArrayList<>((int) Math.min(Integer.MAX_VALUE, touched.rowCount()));
    for (Map.Entry<String, Roaring64NavigableMap> file : touched.positionsByFile().entrySet()) {
      removed.addAll(Arrays.asList(reader.readAt(TouchedFiles.live(snapshot, file.getKey()), file.getValue().toArray())));
    }
    return write(snapshot, removed, upserts, upsertKeys, appends);
  }

  /**
   * Writes the change data of a commit that removes {@code removed} (live rows, logical), writes
   * {@code upserts} (with keys {@code upsertKeys}) and appends {@code appends} (a history table's
   * closed versions: inserts); none when nothing is removed.
   */
  Written write(Snapshot snapshot, List<Row> removed, List<Row> upserts, Row[] upsertKeys, List<Row> appends) throws IOException {
    if (removed.isEmpty()) {
      return Written.NONE;
    }
    KeySet upserted = KeySet.create(keySchema, upsertKeys.length);
    for (Row key : upsertKeys) {
      upserted.add(key);
    }
    KeySet replaced = KeySet.create(keySchema, removed.size());
    ChangeDataFiles files = files(snapshot);
    try {
      for (Row row : removed) {
        Row key = row.project(keyOrdinals);
        if (upserted.contains(key)) {
          replaced.add(key);
          files.write(row, ChangeType.UPDATE_PREIMAGE);
        } else {
          files.write(row, ChangeType.DELETE);
        }
      }
      for (int i = 0; i < upserts.size(); i++) {
        files.write(upserts.get(i), replaced.contains(upsertKeys[i]) ? ChangeType.UPDATE_POSTIMAGE : ChangeType.INSERT);
      }
      for (Row row : appends) {
        files.write(row, ChangeType.INSERT);
      }
      return new Written(files.finish(), files.writtenPaths());
    } catch (IOException | RuntimeException e) {
      files.discard();
      throw e;
    }
  }

  /**
   * The change data of a truncate of {@code snapshot}: every live row deleted, then {@code inserted};
   * none when the table has no live row. Reads the whole table.
   */
  Written writeTruncate(Snapshot snapshot, List<Row> inserted) throws IOException {
    ChangeDataFiles files = files(snapshot);
    try {
      long deleted = 0;
      try (TableScan rows = TableScan.of(newFiles.storage(), snapshot, List.of())) {
        while (rows.hasNext()) {
          files.write(rows.next(), ChangeType.DELETE);
          deleted++;
        }
      }
      if (deleted == 0) {
        return Written.NONE;
      }
      for (Row row : inserted) {
        files.write(row, ChangeType.INSERT);
      }
      return new Written(files.finish(), files.writtenPaths());
    } catch (IOException | RuntimeException e) {
      files.discard();
      throw e;
    }
  }

  private ChangeDataFiles files(Snapshot snapshot) {
    return new ChangeDataFiles(newFiles.storage(), newFiles.tableRoot(), DataLayout.of(snapshot), newFiles.parquetOptions());
  }

  /** The {@code cdc} actions of a commit and the files they name (absolute paths, for cleanup). */
  record Written(List<AddCDCFile> actions, List<String> paths) {
    static final Written NONE = new Written(List.of(), List.of());
  }
}
