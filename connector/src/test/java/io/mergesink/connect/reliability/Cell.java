package io.mergesink.connect.reliability;

import io.mergesink.core.merge.MergeStrategy;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One cell of the reliability matrix: how the sink lands changes, whether it compacts, and where the
 * table lives. Every scenario runs in cells (see {@link Matrix}); a cell only adds its options to a
 * scenario's configuration (its table root: {@link Workloads#config}) and tells the audit which
 * model applies.
 */
record Cell(Layout layout, Compaction compaction, Store store) {
  /** How changes land in the table; labelled as the options name them ({@code copy-on-write}). */
  enum Layout {
    DELETION_VECTORS,
    COPY_ON_WRITE,
    APPEND;

    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** Compaction after commits: forced (it runs after almost every commit) or switched off. */
  enum Compaction {
    FORCED,
    OFF;

    String label() {
      return "compaction-" + name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where the table lives: a local directory, or a bucket of the test S3 server (S3Proxy). */
  enum Store {
    LOCAL,
    S3
  }

  /** Small files are merged as soon as there are two of them. */
  static final String FORCED_MIN_FILES = "2";
  /** A file is rewritten as soon as 1 % of its rows are deleted. */
  static final String FORCED_DV_RATIO = "0.01";

  /** A cell with its table on local disk. */
  static Cell of(Layout layout, Compaction compaction) {
    return new Cell(layout, compaction, Store.LOCAL);
  }

  /** This cell with its table on S3. */
  Cell onS3() {
    return new Cell(layout, compaction, Store.S3);
  }

  boolean isOnS3() {
    return store == Store.S3;
  }

  /** Whether the table is an append (audit) table: every event a row, checked by Kafka position. */
  boolean isAppend() {
    return layout == Layout.APPEND;
  }

  /** The merge-core strategy the sink's writers use in this cell (what another writer of the table should use too). */
  MergeStrategy mergeStrategy() {
    return switch (layout) {
      case DELETION_VECTORS -> MergeStrategy.DELETION_VECTORS;
      case COPY_ON_WRITE -> MergeStrategy.COPY_ON_WRITE;
      case APPEND -> MergeStrategy.APPEND;
    };
  }

  /** Whether the sink writes deletion vector files in this cell (faults aimed at them can fire). */
  boolean writesDeletionVectors() {
    return layout == Layout.DELETION_VECTORS;
  }

  /** {@code config} with this cell's write mode, merge strategy and compaction options. */
  Map<String, String> apply(Map<String, String> config) {
    Map<String, String> celled = new HashMap<>(config);
    if (layout == Layout.APPEND) {
      celled.put("write.mode", "append");
    } else {
      celled.put("write.mode", "upsert");
      celled.put("merge.strategy", layout.label());
    }
    if (compaction == Compaction.FORCED) {
      celled.put("compaction.enabled", "true");
      celled.put("compaction.min.files", FORCED_MIN_FILES);
      celled.put("compaction.dv.ratio", FORCED_DV_RATIO);
    } else {
      celled.put("compaction.enabled", "false");
    }
    return celled;
  }

  /**
   * The cell's name, as {@code -Dreliability.cells} takes it: {@code copy-on-write/compaction-forced},
   * with {@code /s3} after it for a table on S3.
   */
  String label() {
    return layout.label() + "/" + compaction.label() + (isOnS3() ? "/s3" : "");
  }

  /** A name fit for topics, connectors and directories. */
  String slug() {
    return label().replace('/', '-');
  }

  @Override
  public String toString() {
    return label();
  }
}
