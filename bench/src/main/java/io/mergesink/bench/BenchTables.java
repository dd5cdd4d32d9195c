package io.mergesink.bench;

import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.writer.CommitResult;
import io.mergesink.core.writer.MergingTableWriter;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.util.Map;

/** Creates the benchmark's tables under one directory and bulk-loads them. */
final class BenchTables {
  private final Storage storage;
  private final String directory;

  BenchTables(Storage storage, String directory) {
    this.storage = storage;
    this.directory = directory;
  }

  /** An empty CDC table named {@code name}, keyed on {@code id}, written with {@code strategy}. */
  DeltaTable create(String name, MergeStrategy strategy) throws IOException {
    return create(name, strategy, Map.of());
  }

  /** {@link #create(String, MergeStrategy)} with table properties {@code properties}. */
  DeltaTable create(String name, MergeStrategy strategy, Map<String, String> properties) throws IOException {
    DeltaTable table = table(name);
    table.createIfAbsent(new TableSpec(CdcRows.SCHEMA, CdcRows.KEY, strategy, properties));
    return table;
  }

  /** An empty CDC append table named {@code name}, without key. */
  DeltaTable createAppend(String name) throws IOException {
    DeltaTable table = table(name);
    table.createIfAbsent(TableSpec.append(CdcRows.SCHEMA, Map.of()));
    return table;
  }

  /** The table named {@code name} (which may not exist yet). */
  DeltaTable table(String name) {
    return DeltaTable.forPath(storage, directory + "/" + name);
  }

  /**
   * Loads {@code rows} fresh keys of {@code keys} into {@code table} as {@code files} append
   * commits of one data file each: the cheapest way to a large table with few large files. Any
   * table takes append commits; they do not look keys up, so every key must be new.
   *
   * @return the load rate in rows per second (commits only, generating the rows excluded)
   */
  static double bulkLoad(DeltaTable table, KeySpace keys, long rows, int files) throws IOException {
    TableWriter writer = table.newAppendWriter(WriterOptions.defaults().withTargetFileSizeBytes(Long.MAX_VALUE));
    long nanos = 0;
    long remaining = rows;
    for (int file = 0; file < files; file++) {
      int count = Math.toIntExact(remaining / (files - file));
      ChangeSet inserts = keys.inserts(count);
      long start = System.nanoTime();
      commit(writer, inserts);
      nanos += System.nanoTime() - start;
      remaining -= count;
    }
    return rows / (nanos / 1e9);
  }

  /**
   * Commits {@code changes}. The benchmark runs one writer per table, so being fenced means the
   * run is broken.
   *
   * @throws IllegalStateException another writer took over one of the change set's txn app ids
   */
  static CommitResult commit(TableWriter writer, ChangeSet changes) throws IOException {
    try {
      return writer.commit(changes);
    } catch (FencedException e) {
      throw new IllegalStateException("benchmark writer fenced on " + writer.snapshot().tableRoot(), e);
    }
  }

  /** A writer of {@code strategy}, as the merge-core class, for its index figures. */
  static MergingTableWriter writer(DeltaTable table, MergeStrategy strategy) throws IOException {
    return (MergingTableWriter) table.newWriter(WriterOptions.defaults(strategy));
  }
}
