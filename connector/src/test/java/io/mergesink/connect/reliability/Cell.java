package io.mergesink.connect.reliability;

import io.mergesink.core.merge.MergeStrategy;
import java.util.HashMap;
import java.util.Map;

/**
 * One cell of the reliability matrix: how the sink lands changes, and whether it compacts. Every
 * scenario runs in cells (see {@link Matrix}); a cell only adds its options to a scenario's
 * configuration and tells the audit which model applies.
 */
record Cell(Layout layout, Compaction compaction) {
  /** How changes land in the table. */
  enum Layout {
    DELETION_VECTORS("deletion-vectors"),
    COPY_ON_WRITE("copy-on-write"),
    APPEND("append");

    private final String label;

    Layout(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  /** Compaction after commits: forced (it runs after almost every commit) or switched off. */
  enum Compaction {
    FORCED("compaction-forced"),
    OFF("compaction-off");

    private final String label;

    Compaction(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  /** Small files are merged as soon as there are two of them. */
  static final String FORCED_MIN_FILES = "2";
  /** A file is rewritten as soon as 1 % of its rows are deleted. */
  static final String FORCED_DV_RATIO = "0.01";

  static Cell of(Layout layout, Compaction compaction) {
    return new Cell(layout, compaction);
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
    switch (layout) {
      case DELETION_VECTORS -> {
        celled.put("write.mode", "upsert");
        celled.put("merge.strategy", "deletion-vectors");
      }
      case COPY_ON_WRITE -> {
        celled.put("write.mode", "upsert");
        celled.put("merge.strategy", "copy-on-write");
      }
      case APPEND -> celled.put("write.mode", "append");
      default -> throw new IllegalStateException("unknown layout " + layout);
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

  /** The cell's name, as {@code -Dreliability.cells} takes it: {@code copy-on-write/compaction-forced}. */
  String label() {
    return layout.label() + "/" + compaction.label();
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
