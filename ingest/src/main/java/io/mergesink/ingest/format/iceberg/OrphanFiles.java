package io.mergesink.ingest.format.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.util.FileSystemWalker;

/**
 * Files under an Iceberg table's location that no snapshot, manifest or metadata file of the table
 * references (docs/iceberg.md, "Maintenance"): what a writer that crashed between writing its files
 * and committing them left. Only files older than {@link #MIN_AGE} count, so that files of commits
 * in flight (of this or any other writer) are never taken. The sink's maintenance and the CLI's
 * {@code vacuum} remove them.
 */
public final class OrphanFiles {
  /** As Iceberg's own orphan file actions: far longer than any commit takes. */
  public static final Duration MIN_AGE = Duration.ofDays(3);

  private OrphanFiles() {}

  /**
   * The orphans of {@code table} last modified before {@code olderThanMillis}.
   *
   * @throws UnsupportedOperationException the table's file IO cannot list files
   */
  public static List<String> find(Table table, long olderThanMillis) {
    if (!(table.io() instanceof SupportsPrefixOperations io)) {
      throw new UnsupportedOperationException("the file IO of table " + table.name() + " (" + table.io().getClass().getName()
          + ") cannot list files");
    }
    Set<String> referenced = referenced(table);
    List<String> orphans = new ArrayList<>();
    FileSystemWalker.listDirRecursivelyWithFileIO(io, table.location(), table.specs(),
        file -> file.createdAtMillis() < olderThanMillis, location -> {
          if (!referenced.contains(pathOf(location))) {
            orphans.add(location);
          }
        });
    return orphans;
  }

  /** Deletes {@code orphans} of {@code table}. */
  public static void delete(Table table, List<String> orphans) {
    orphans.forEach(table.io()::deleteFile);
  }

  /**
   * Every file the table's metadata references, by path (scheme and authority dropped: a file may be
   * referenced as {@code s3://} and listed as {@code s3a://}, or as {@code /tmp} and {@code file:/tmp}).
   */
  private static Set<String> referenced(Table table) {
    Set<String> paths = new HashSet<>();
    ReachableFileUtil.metadataFileLocations(table, true).forEach(location -> paths.add(pathOf(location)));
    paths.add(pathOf(ReachableFileUtil.versionHintLocation(table)));
    ReachableFileUtil.statisticsFilesLocations(table).forEach(location -> paths.add(pathOf(location)));
    Set<String> manifests = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      paths.add(pathOf(snapshot.manifestListLocation()));
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (manifests.add(manifest.path())) {
          paths.add(pathOf(manifest.path()));
          filesOf(table, manifest).forEach(location -> paths.add(pathOf(location)));
        }
      }
    }
    return paths;
  }

  private static List<String> filesOf(Table table, ManifestFile manifest) {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<String> files = switch (manifest.content()) {
      case DATA -> ManifestFiles.readPaths(manifest, table.io(), table.specs());
      case DELETES -> CloseableIterable.transform(ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs()),
          delete -> delete.location());
    }) {
      files.forEach(locations::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return locations;
  }

  private static String pathOf(String location) {
    return new Path(location).toUri().getPath();
  }
}
