package io.mergesink.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a run left in its table's directory: every file a sink wrote (data, deletion vectors, logs,
 * manifests, snapshots; nothing is expired or vacuumed during a run), per commit the sink made, and
 * how long the check took to read the table with the format's reader and compare it with the workload.
 *
 * @param commits the sink's commits: Delta versions, Iceberg snapshots, Paimon's {@code APPEND} snapshots
 *     (the {@code COMPACT} snapshot of each is part of the same commit)
 */
record TableFootprint(long files, long bytes, long commits, double readSeconds) {
  private static final double MIB = 1 << 20;

  /** The files under {@code root}, the commits, and the read time of the check. */
  static TableFootprint of(Path root, long commits, double readSeconds) {
    long files = 0;
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        files++;
        bytes += Files.size(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    return new TableFootprint(files, bytes, commits, readSeconds);
  }

  /**
   * What was added after {@code earlier} (of the same table): its files and bytes subtracted, commits and read time as here,
   * the commits being those made since.
   */
  TableFootprint since(TableFootprint earlier) {
    return new TableFootprint(files - earlier.files, bytes - earlier.bytes, commits, readSeconds);
  }

  /** For the report's last column: {@code 123 commits, 4.1 files and 0.52 MiB per commit, read and checked in 0.84 s}. */
  String describe() {
    return String.format("%,d commits, %.1f files and %.2f MiB per commit, read and checked in %.2f s", commits, (double) files / commits,
        bytes / MIB / commits, readSeconds);
  }
}
