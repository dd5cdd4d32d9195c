package io.mergesink.connect.reliability;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import io.mergesink.ingest.testing.SinkTables;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One cell of the reliability matrix: how the sink lands changes, whether it compacts, which CDC
 * mode the table is written in, where the table lives and in which table format. Every scenario
 * runs in cells (see {@link Matrix}); a cell only adds its options to a scenario's configuration
 * (its table root: {@link Workloads#config}) and tells the audit which model applies and which
 * reader reads the table ({@link #tables()}).
 */
record Cell(Layout layout, Compaction compaction, Mode mode, Store store, Format format) {
  Cell {
    if (layout == Layout.APPEND && mode != Mode.PLAIN) {
      throw new IllegalArgumentException("append tables take no CDC mode (the sink refuses them there), got " + mode);
    }
    if (format != Format.DELTA && mode == Mode.CHANGE_FEED) {
      throw new IllegalArgumentException("Iceberg tables have no Change Data Feed, got " + mode);
    }
    if (format == Format.ICEBERG_V2 && layout != Layout.DELETION_VECTORS) {
      throw new IllegalArgumentException("format-version 2 differs from 3 only in how upserts mark rows deleted; got " + layout);
    }
    if (layout == Layout.MERGE_ON_READ && format != Format.PAIMON) {
      throw new IllegalArgumentException("only Paimon tables are merged on read, got " + format);
    }
    if (layout == Layout.PARTIAL_UPDATE && format != Format.PAIMON) {
      throw new IllegalArgumentException("only Paimon tables have a partial-update merge engine, got " + format);
    }
    if (format == Format.PAIMON && layout == Layout.COPY_ON_WRITE) {
      throw new IllegalArgumentException("Paimon tables take deletion vectors, merge on read or appends, got " + layout);
    }
    if (format == Format.PAIMON && (mode != Mode.PLAIN || compaction != Compaction.OFF)) {
      throw new IllegalArgumentException("Paimon tables take plain upserts and compact by themselves; got " + mode + ", "
          + compaction);
    }
  }

  /**
   * The table format: Delta, or Iceberg with the table root as its warehouse, format version 3
   * (deletion vectors, the sink's default) or 2 (position delete files,
   * {@code table.properties.format-version=2}). An Iceberg table on local disk is in the sink's
   * default Hadoop catalog; one on S3 or under a fault-injecting root, where Hadoop's rename commit
   * is refused, in a JDBC catalog of its own ({@link Workloads#config}), written through the sink's
   * storage.
   */
  enum Format {
    DELTA(SinkTables.DELTA, Map.of()),
    ICEBERG(SinkTables.ICEBERG, Map.of("table.format", "iceberg")),
    ICEBERG_V2(SinkTables.ICEBERG, Map.of("table.format", "iceberg", "table.properties.format-version", "2")),
    /**
     * Paimon, with the table root as the filesystem catalog's warehouse: a primary-key table with
     * deletion vectors ({@link Layout#DELETION_VECTORS}) or merged on read
     * ({@link Layout#MERGE_ON_READ}), or a table without primary key ({@link Layout#APPEND}); its
     * files go through the sink's storage on S3 and under a fault-injecting root.
     */
    PAIMON(SinkTables.PAIMON, Map.of("table.format", "paimon"));

    private final SinkTables tables;
    private final Map<String, String> options;

    Format(SinkTables tables, Map<String, String> options) {
      this.tables = tables;
      this.options = options;
    }

    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** How changes land in the table; labelled as the options name them ({@code copy-on-write}). */
  enum Layout {
    DELETION_VECTORS,
    COPY_ON_WRITE,
    /** A Paimon primary-key table without deletion vectors: readers merge by key. */
    MERGE_ON_READ,
    /**
     * A Paimon primary-key table with deletion vectors and the {@code partial-update} merge engine:
     * a column a change leaves null keeps its value.
     */
    PARTIAL_UPDATE,
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

  /**
   * The CDC mode of a keyed table (docs/design.md, "Ordering and soft deletes", "History tables",
   * "Change Data Feed"), labelled as a third part of the cell's name; {@link #PLAIN} has none.
   */
  enum Mode {
    /** Blind upserts in Kafka order, hard deletes. */
    PLAIN(Map.of()),
    /** Upserts ordered by PostgreSQL's {@code source.lsn} through the MERGE engine, kept in {@code __source_lsn}. */
    ORDERED(Map.of("upsert.order.by", "source.lsn")),
    /** Deletes mark the row ({@code __deleted}, {@code __deleted_at}) instead of removing it. */
    SOFT_DELETES(Map.of("delete.mode", "soft")),
    /** A history table (SCD type 2): every change a version with {@code __valid_from}, {@code __valid_to}, {@code __current}. */
    HISTORY(Map.of()),
    /**
     * A history table whose versions are placed by {@code source.lsn} ({@code __source_lsn},
     * {@code __valid_to_source_lsn}): replays and changes of keys that moved partitions land in
     * their place of the history.
     */
    HISTORY_ORDERED(Map.of("upsert.order.by", "source.lsn")),
    /** Upserts into a table with a Change Data Feed ({@code _change_data/} files). */
    CHANGE_FEED(Map.of("table.properties.delta.enableChangeDataFeed", "true"));

    private final Map<String, String> options;

    Mode(Map<String, String> options) {
      this.options = options;
    }

    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the table is a history table ({@code write.mode=history}). */
    boolean keepsHistory() {
      return this == HISTORY || this == HISTORY_ORDERED;
    }
  }

  /**
   * Where the table lives: a local directory, a bucket of the test S3 server (S3Proxy), or a
   * container of the test Azure Blob service (Azurite); labelled last in a cell's name unless local.
   */
  enum Store {
    LOCAL,
    S3,
    AZURE;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Small files are merged as soon as there are two of them. */
  static final String FORCED_MIN_FILES = "2";
  /** A file is rewritten as soon as 1 % of its rows are deleted. */
  static final String FORCED_DV_RATIO = "0.01";

  /** A cell of plain upserts (or appends) with its table on local disk. */
  static Cell of(Layout layout, Compaction compaction) {
    return new Cell(layout, compaction, Mode.PLAIN, Store.LOCAL, Format.DELTA);
  }

  /** A cell of an Iceberg table of {@code format} ({@link Format#ICEBERG} or {@link Format#ICEBERG_V2}), not compacted. */
  static Cell iceberg(Format format, Layout layout) {
    return new Cell(layout, Compaction.OFF, Mode.PLAIN, Store.LOCAL, format);
  }

  /** A cell of a Paimon table of {@code layout}, on local disk. */
  static Cell paimon(Layout layout) {
    return new Cell(layout, Compaction.OFF, Mode.PLAIN, Store.LOCAL, Format.PAIMON);
  }

  /** This cell with compaction forced. */
  Cell compacted() {
    return new Cell(layout, Compaction.FORCED, mode, store, format);
  }

  /** This cell with its table written in {@code mode}. */
  Cell in(Mode mode) {
    return new Cell(layout, compaction, mode, store, format);
  }

  /** This cell with its table on S3. */
  Cell onS3() {
    return new Cell(layout, compaction, mode, Store.S3, format);
  }

  /** This cell with its table on Azure Blob Storage. */
  Cell onAzure() {
    return new Cell(layout, compaction, mode, Store.AZURE, format);
  }

  /** Whether the table is a Delta table: scenarios of Delta's own mechanics (its log, its files, other Delta writers) need one. */
  boolean isDelta() {
    return format == Format.DELTA;
  }

  /** Whether the table is an Iceberg table (either format version). */
  boolean isIceberg() {
    return format == Format.ICEBERG || format == Format.ICEBERG_V2;
  }

  /** The independent reader of the cell's tables: Delta Kernel, Iceberg's generic reader, or Paimon's reader. */
  SinkTables tables() {
    return format.tables;
  }

  /** Whether the table is written in plain upserts or appends: no CDC mode. */
  boolean isPlain() {
    return mode == Mode.PLAIN;
  }

  boolean isOnS3() {
    return store == Store.S3;
  }

  boolean isOnAzure() {
    return store == Store.AZURE;
  }

  /** Whether the table is on local disk, not in an object store. */
  boolean isLocal() {
    return store == Store.LOCAL;
  }

  /** Whether the table is an append (audit) table: every event a row, checked by Kafka position. */
  boolean isAppend() {
    return layout == Layout.APPEND;
  }

  /**
   * A merge-core writer of the kind the sink uses in this cell (what another writer of the table
   * should use too); {@code keyColumns} is the key of a keyed table.
   */
  TableWriter newWriter(DeltaTable table, List<String> keyColumns) throws IOException {
    if (!isDelta()) {
      throw new IllegalStateException("a merge-core writer writes Delta tables, the cell " + this + " has an Iceberg table");
    }
    return switch (layout) {
      case DELETION_VECTORS -> table.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS), keyColumns);
      case COPY_ON_WRITE -> table.newWriter(WriterOptions.defaults(MergeStrategy.COPY_ON_WRITE), keyColumns);
      case APPEND -> table.newAppendWriter(WriterOptions.defaults());
      case MERGE_ON_READ, PARTIAL_UPDATE -> throw new IllegalStateException(layout.label() + " is a layout of Paimon tables only");
    };
  }

  /** Whether the sink writes deletion vector files in this cell (faults aimed at them can fire). */
  boolean writesDeletionVectors() {
    return layout == Layout.DELETION_VECTORS || layout == Layout.PARTIAL_UPDATE;
  }

  /** Whether the cell's tables take truncates ({@code truncate.enabled}; Paimon tables refuse it). */
  boolean truncates() {
    return format != Format.PAIMON;
  }

  /** Whether a change's null columns keep the row's values (Paimon's {@code partial-update} merge engine). */
  boolean updatesPartially() {
    return layout == Layout.PARTIAL_UPDATE;
  }

  /** {@code config} with this cell's table format, write mode, merge strategy, CDC mode and compaction options. */
  Map<String, String> apply(Map<String, String> config) {
    Map<String, String> celled = new HashMap<>(config);
    celled.putAll(format.options);
    if (layout == Layout.APPEND) {
      celled.put("write.mode", "append");
    } else if (format == Format.PAIMON) {
      celled.put("write.mode", "upsert");
      celled.put("table.properties.deletion-vectors.enabled", Boolean.toString(layout != Layout.MERGE_ON_READ));
      if (layout == Layout.PARTIAL_UPDATE) {
        celled.put("table.properties.merge-engine", "partial-update");
      }
    } else {
      celled.put("write.mode", mode.keepsHistory() ? "history" : "upsert");
      celled.put("merge.strategy", layout.label());
      celled.putAll(mode.options);
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
   * with the mode after it unless plain ({@code deletion-vectors/compaction-off/history}), and
   * {@code /s3} or {@code /azure} last for a table in an object store; the format first unless Delta
   * ({@code iceberg-v2/deletion-vectors/compaction-off}).
   */
  String label() {
    return (isDelta() ? "" : format.label() + "/") + layout.label() + "/" + compaction.label()
        + (isPlain() ? "" : "/" + mode.label()) + (isLocal() ? "" : "/" + store.label());
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
