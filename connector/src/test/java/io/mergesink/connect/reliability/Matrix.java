package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.Cell.Compaction;
import io.mergesink.connect.reliability.Cell.Format;
import io.mergesink.connect.reliability.Cell.Layout;
import io.mergesink.connect.reliability.Cell.Mode;
import io.mergesink.connect.reliability.Cell.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The cells each scenario runs in: the one parameter source of the reliability suite.
 *
 * <p>{@code -Dreliability.cells} chooses: {@code ci} (the default) runs a representative cell per
 * scenario case, rotating so that every layout, both compaction settings and the CDC modes appear
 * (a scenario of a single case names its CI cells); {@code all}
 * (the {@code soak} profile) runs every case in every cell; a comma-separated list of cell labels
 * ({@code copy-on-write/compaction-off,append/compaction-forced/s3}) runs every case in those cells,
 * to rerun one; a scenario none of the chosen cells applies to runs zero times (its tests allow it).
 * {@code -Dreliability.flush.pipelined=true} runs the chosen cells with the pipelined flush, and
 * {@code -Dreliability.index.memory.max.bytes=N} with that key index budget (1: every table's index is
 * dropped after each flush that brings it no changes).
 *
 * <p>Cells keep their tables on local disk, and for the scenarios where the storage's commit and
 * failure behaviour matters (crashes, storage faults, zombies, concurrent writers: {@link
 * #acrossStorages}, {@link #cellsOnBothStorages}) also on S3 and on Azure ({@link #AZURE_CELLS}).
 * In CI a few of those cases run on S3 or Azure besides their local cell ({@link Case#alsoOnS3InCi()},
 * {@link Case#alsoOnAzureInCi()}); {@code all} runs every case in every S3 and Azure cell too.
 *
 * <p>The Iceberg cells ({@link #ICEBERG_CELLS}), on local disk and S3, are outside the rotation:
 * {@code all} and their labels run every case that applies to them in them; scenarios of Delta's
 * own mechanics (its log and checkpoints, other Delta writers) leave them out with
 * {@link Cell#isDelta()}, and crashes and storage faults have cases of Iceberg's own files.
 */
final class Matrix {
  static final String CELLS_PROPERTY = "reliability.cells";
  /** {@code -Dreliability.flush.pipelined=true} runs every cell with {@code flush.pipelined=true}. */
  static final String PIPELINED_PROPERTY = "reliability.flush.pipelined";
  /** {@code -Dreliability.index.memory.max.bytes=N} runs every cell with {@code index.memory.max.bytes=N}. */
  static final String INDEX_BUDGET_PROPERTY = "reliability.index.memory.max.bytes";
  static final String CI = "ci";
  static final String ALL = "all";

  /** The layouts and compactions, in rotation order: neighbours differ in both, any three show every layout. */
  private static final List<Cell> LAYOUTS = List.of(
      Cell.of(Layout.DELETION_VECTORS, Compaction.FORCED),
      Cell.of(Layout.COPY_ON_WRITE, Compaction.OFF),
      Cell.of(Layout.APPEND, Compaction.FORCED),
      Cell.of(Layout.DELETION_VECTORS, Compaction.OFF),
      Cell.of(Layout.COPY_ON_WRITE, Compaction.FORCED),
      Cell.of(Layout.APPEND, Compaction.OFF));

  /**
   * Every local cell, in rotation order: one lap over {@link #LAYOUTS} per CDC mode, the k-th keyed
   * cell of lap L in mode (L + k) mod modes (append cells have none). So every keyed layout meets
   * every mode exactly once, whatever the number of modes, and neighbouring cases meet different modes.
   */
  static final List<Cell> CELLS = rotation();

  private static List<Cell> rotation() {
    List<Cell> cells = new ArrayList<>();
    Mode[] modes = Mode.values();
    for (int lap = 0; lap < modes.length; lap++) {
      int keyed = 0;
      for (Cell cell : LAYOUTS) {
        cells.add(cell.isAppend() ? cell : cell.in(modes[(lap + keyed++) % modes.length]));
      }
    }
    return List.copyOf(cells);
  }

  /** The same cells with their tables on S3, in the same rotation order. */
  static final List<Cell> S3_CELLS = CELLS.stream().map(Cell::onS3).toList();

  /**
   * The first lap of the rotation with its tables on Azure (Azurite): every layout and compaction
   * setting and half the CDC modes. Azure differs from S3 in how it publishes and fails, not in what
   * the modes write, so one lap covers it.
   */
  static final List<Cell> AZURE_CELLS = CELLS.subList(0, LAYOUTS.size()).stream().map(Cell::onAzure).toList();

  /**
   * The Iceberg cells: upserts in deletion vectors (format version 3) and in position delete files
   * (version 2), copy-on-write, a history table ordered by {@code source.lsn}, appends, and
   * deletion vectors with compaction forced, on local disk (the Hadoop catalog, or a JDBC catalog
   * under a fault-injecting root); deletion vectors and position delete files also on S3 (a JDBC
   * catalog, files through the sink's S3 storage). Under {@code ci} a few single-case scenarios name
   * one of them among their CI cells, and the cases of {@link #acrossStorages} scenarios meant for
   * Iceberg run in the rotations {@link #ICEBERG_CI} and {@link #ICEBERG_S3_CI}.
   */
  static final List<Cell> ICEBERG_CELLS = List.of(
      Cell.iceberg(Format.ICEBERG, Layout.DELETION_VECTORS),
      Cell.iceberg(Format.ICEBERG_V2, Layout.DELETION_VECTORS),
      Cell.iceberg(Format.ICEBERG, Layout.COPY_ON_WRITE),
      Cell.iceberg(Format.ICEBERG, Layout.DELETION_VECTORS).in(Mode.HISTORY_ORDERED),
      Cell.iceberg(Format.ICEBERG, Layout.APPEND),
      Cell.iceberg(Format.ICEBERG, Layout.DELETION_VECTORS).compacted(),
      Cell.iceberg(Format.ICEBERG, Layout.DELETION_VECTORS).onS3(),
      Cell.iceberg(Format.ICEBERG_V2, Layout.DELETION_VECTORS).onS3());

  /**
   * The local Iceberg cell of the Iceberg cases of {@link #acrossStorages} in CI: position delete
   * files, not compacted (a compacted cell's retries take about four times as long).
   */
  static final List<Cell> ICEBERG_CI = List.of(Cell.iceberg(Format.ICEBERG_V2, Layout.DELETION_VECTORS));

  /** The S3 Iceberg cells the Iceberg cases of {@link #acrossStorages} marked {@link Case#alsoOnS3InCi()} rotate over in CI. */
  static final List<Cell> ICEBERG_S3_CI = List.of(Cell.iceberg(Format.ICEBERG, Layout.DELETION_VECTORS).onS3());

  /**
   * The Paimon cells: primary-key tables with deletion vectors and merged on read, on local disk
   * (Paimon's own file IO, or the sink's storage under a fault-injecting root) and on S3 (the sink's
   * storage), one with the {@code partial-update} merge engine, and an append table. Outside the
   * rotation, like the Iceberg cells.
   */
  static final List<Cell> PAIMON_CELLS = List.of(
      Cell.paimon(Layout.DELETION_VECTORS),
      Cell.paimon(Layout.MERGE_ON_READ),
      Cell.paimon(Layout.PARTIAL_UPDATE),
      Cell.paimon(Layout.APPEND),
      Cell.paimon(Layout.DELETION_VECTORS).onS3(),
      Cell.paimon(Layout.MERGE_ON_READ).onS3());

  private Matrix() {}

  /** One case of a scenario with several (a crash point, a fault), and the cells where it means something. */
  record Case(String name, Predicate<Cell> appliesTo, Reach reach, Object... arguments) {
    static Case of(String name, Object... arguments) {
      return new Case(name, cell -> true, Reach.LOCAL_IN_CI, arguments);
    }

    /** A case that only means something in some cells (a deletion vector fault needs deletion vectors). */
    static Case in(Predicate<Cell> cells, String name, Object... arguments) {
      return new Case(name, cells, Reach.LOCAL_IN_CI, arguments);
    }

    /** This case only in the cells {@code cells} accepts too. */
    Case onlyIn(Predicate<Cell> cells) {
      return new Case(name, appliesTo.and(cells), reach, arguments);
    }

    /** This case in CI also in an S3 cell (of {@link #acrossStorages}' S3 rotation), not only in a local one. */
    Case alsoOnS3InCi() {
      return new Case(name, appliesTo, Reach.ALSO_S3_IN_CI, arguments);
    }

    /** This case in CI also in an Azure cell (of {@link #acrossStorages}' Azure rotation), not only in a local one. */
    Case alsoOnAzureInCi() {
      return new Case(name, appliesTo, Reach.ALSO_AZURE_IN_CI, arguments);
    }

    /** This case not in CI: only where cells are chosen ({@code all}, labels). */
    Case notInCi() {
      return new Case(name, appliesTo, Reach.NOT_IN_CI, arguments);
    }
  }

  /** Where a case runs in CI: on local disk, and maybe in one object store. */
  enum Reach {
    LOCAL_IN_CI(Store.LOCAL),
    ALSO_S3_IN_CI(Store.S3),
    ALSO_AZURE_IN_CI(Store.AZURE),
    NOT_IN_CI(null);

    private final Store also;

    Reach(Store also) {
      this.also = also;
    }

    boolean inCi(Store store) {
      return this != NOT_IN_CI && (store == Store.LOCAL || store == also);
    }
  }

  /** The cells of a single-case scenario on local disk: {@code ci} in CI, else the selected local cells. */
  static Stream<Cell> cells(Cell ci) {
    return cells(ci, cell -> true);
  }

  /** The cells of a local-disk scenario that only means something in cells {@code applies} accepts. */
  static Stream<Cell> cells(Cell ci, Predicate<Cell> applies) {
    return cells(List.of(ci), applies);
  }

  /** {@link #cells(Cell, Predicate)} with several CI cells (e.g. one per CDC mode). */
  static Stream<Cell> cells(List<Cell> ci, Predicate<Cell> applies) {
    requireLocal(ci, applies);
    return selection().map(selected -> selected.stream().filter(Cell::isLocal).filter(applies))
        .orElseGet(ci::stream);
  }

  /**
   * {@link #cells(List, Predicate)} of a scenario that runs in object stores too: in CI the local
   * cells {@code ci}, else every selected cell, of any store, that {@code applies} accepts.
   */
  static Stream<Cell> cellsInAnyStore(List<Cell> ci, Predicate<Cell> applies) {
    requireLocal(ci, applies);
    return selection().map(selected -> selected.stream().filter(applies)).orElseGet(ci::stream);
  }

  private static void requireLocal(List<Cell> ci, Predicate<Cell> applies) {
    for (Cell cell : ci) {
      if (!applies.test(cell) || !cell.isLocal()) {
        throw new IllegalArgumentException("the CI cell " + cell + " is not one the scenario applies to");
      }
    }
  }

  /** The cells of a single-case scenario on either storage: {@code ci} and {@code ciOnS3} in CI, else the selected cells. */
  static Stream<Cell> cellsOnBothStorages(Cell ci, Cell ciOnS3) {
    return cellsOnBothStorages(ci, ciOnS3, cell -> true);
  }

  /** {@link #cellsOnBothStorages(Cell, Cell)} of a scenario that only means something in cells {@code applies} accepts. */
  static Stream<Cell> cellsOnBothStorages(Cell ci, Cell ciOnS3, Predicate<Cell> applies) {
    if (!ci.isLocal() || !ciOnS3.isOnS3() || !applies.test(ci) || !applies.test(ciOnS3)) {
      throw new IllegalArgumentException("expected a local and an S3 CI cell the scenario applies to, got " + ci + " and "
          + ciOnS3);
    }
    return selection().map(selected -> selected.stream().filter(applies)).orElseGet(() -> Stream.of(ci, ciOnS3));
  }

  /**
   * Arguments {@code (cell, case name, case arguments...)}: in CI, each case runs in the next cell
   * of the rotation it applies to, the rotation going on from there; otherwise every case runs in
   * every selected cell it applies to.
   */
  static Stream<Arguments> across(List<Case> cases) {
    return arguments(cases, selection().map(selected -> selected.stream().filter(Cell::isLocal).toList()),
        List.of(CELLS));
  }

  /**
   * {@link #across} on local disk, S3 and Azure: in CI each case in its local cell of the rotation,
   * and the cases marked {@link Case#alsoOnS3InCi()} ({@link Case#alsoOnAzureInCi()}) also in the
   * next cell of the rotation of S3 (Azure) cells; otherwise every case in every selected cell it
   * applies to.
   */
  static Stream<Arguments> acrossStorages(List<Case> cases) {
    return arguments(cases, selection(), List.of(CELLS, ICEBERG_CI, S3_CELLS, ICEBERG_S3_CI, AZURE_CELLS));
  }

  /** Arguments of {@code cases} in the {@code selected} cells, or in CI in each of the {@code rotations} the case reaches. */
  private static Stream<Arguments> arguments(List<Case> cases, Optional<List<Cell>> selected, List<List<Cell>> rotations) {
    List<Arguments> arguments = new ArrayList<>();
    int[] next = new int[rotations.size()];
    for (Case scenarioCase : cases) {
      List<Cell> cells = new ArrayList<>();
      if (selected.isPresent()) {
        selected.get().stream().filter(scenarioCase.appliesTo()).forEach(cells::add);
      } else {
        for (int r = 0; r < rotations.size(); r++) {
          List<Cell> rotation = rotations.get(r);
          if (!scenarioCase.reach().inCi(rotation.get(0).store())) {
            continue;
          }
          if (rotation.stream().anyMatch(scenarioCase.appliesTo())) {
            int at = rotation(rotation, next[r], scenarioCase);
            cells.add(rotation.get(at));
            next[r] = (at + 1) % rotation.size();
          }
        }
        if (cells.isEmpty() && scenarioCase.reach() != Reach.NOT_IN_CI) {
          throw new IllegalArgumentException("case '" + scenarioCase.name() + "' applies to no cell of " + rotations);
        }
      }
      for (Cell cell : cells) {
        Object[] values = new Object[scenarioCase.arguments().length + 2];
        values[0] = cell;
        values[1] = scenarioCase.name();
        System.arraycopy(scenarioCase.arguments(), 0, values, 2, scenarioCase.arguments().length);
        arguments.add(Arguments.of(values));
      }
    }
    return arguments.stream();
  }

  /** Whether every cell runs (the {@code soak} profile): long scenarios may then run longer. */
  static boolean allCells() {
    return ALL.equals(System.getProperty(CELLS_PROPERTY, CI).trim());
  }

  /** Whether the sink commits on a thread of its own while its task reads on ({@link #PIPELINED_PROPERTY}). */
  static boolean pipelinedFlush() {
    return Boolean.getBoolean(PIPELINED_PROPERTY);
  }

  /** The sink's {@code index.memory.max.bytes} ({@link #INDEX_BUDGET_PROPERTY}), when one is chosen. */
  static Optional<String> indexBudget() {
    return Optional.ofNullable(System.getProperty(INDEX_BUDGET_PROPERTY));
  }

  /** The position of the first cell from {@code start} on (wrapping) that the case applies to. */
  private static int rotation(List<Cell> rotation, int start, Case scenarioCase) {
    for (int step = 0; step < rotation.size(); step++) {
      int at = (start + step) % rotation.size();
      if (scenarioCase.appliesTo().test(rotation.get(at))) {
        return at;
      }
    }
    throw new IllegalArgumentException("case '" + scenarioCase.name() + "' applies to no cell");
  }

  /** The cells {@code -Dreliability.cells} selects; empty for {@code ci}. */
  private static Optional<List<Cell>> selection() {
    String value = System.getProperty(CELLS_PROPERTY, CI).trim();
    if (value.isEmpty() || value.equals(CI)) {
      return Optional.empty();
    }
    List<Cell> every = new ArrayList<>(CELLS);
    every.addAll(ICEBERG_CELLS.stream().filter(cell -> !cell.isOnS3()).toList());
    every.addAll(S3_CELLS);
    every.addAll(ICEBERG_CELLS.stream().filter(Cell::isOnS3).toList());
    every.addAll(AZURE_CELLS);
    every.addAll(PAIMON_CELLS);
    if (value.equals(ALL)) {
      return Optional.of(every);
    }
    List<Cell> chosen = new ArrayList<>();
    for (String label : value.split(",")) {
      chosen.add(every.stream().filter(cell -> cell.label().equals(label.trim())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("-D" + CELLS_PROPERTY + " names an unknown cell '" + label.trim()
              + "'; expected " + CI + ", " + ALL + " or labels of " + Arrays.toString(every.toArray()))));
    }
    return Optional.of(chosen);
  }
}
