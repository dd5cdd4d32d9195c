package io.mergesink.connect.reliability;

import io.mergesink.connect.reliability.Cell.Compaction;
import io.mergesink.connect.reliability.Cell.Layout;
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
 * scenario case, rotating so that every layout and both compaction settings appear; {@code all}
 * (the {@code soak} profile) runs every case in every cell; a comma-separated list of cell labels
 * ({@code copy-on-write/compaction-off,append/compaction-forced}) runs every case in those cells,
 * to rerun one.
 */
final class Matrix {
  static final String CELLS_PROPERTY = "reliability.cells";
  static final String CI = "ci";
  static final String ALL = "all";

  /** Every cell, in rotation order: neighbours differ in layout and compaction, any three show every layout. */
  static final List<Cell> CELLS = List.of(
      Cell.of(Layout.DELETION_VECTORS, Compaction.FORCED),
      Cell.of(Layout.COPY_ON_WRITE, Compaction.OFF),
      Cell.of(Layout.APPEND, Compaction.FORCED),
      Cell.of(Layout.DELETION_VECTORS, Compaction.OFF),
      Cell.of(Layout.COPY_ON_WRITE, Compaction.FORCED),
      Cell.of(Layout.APPEND, Compaction.OFF));

  private Matrix() {}

  /** One case of a scenario with several (a crash point, a fault), and the cells where it means something. */
  record Case(String name, Predicate<Cell> appliesTo, Object... arguments) {
    static Case of(String name, Object... arguments) {
      return new Case(name, cell -> true, arguments);
    }

    /** A case that only means something in some cells (a deletion vector fault needs deletion vectors). */
    static Case in(Predicate<Cell> cells, String name, Object... arguments) {
      return new Case(name, cells, arguments);
    }
  }

  /** The cells of a single-case scenario: {@code ci} in CI, else the selected cells. */
  static Stream<Cell> cells(Cell ci) {
    return cells(ci, cell -> true);
  }

  /** The cells of a scenario that only means something in cells {@code applies} accepts. */
  static Stream<Cell> cells(Cell ci, Predicate<Cell> applies) {
    if (!applies.test(ci)) {
      throw new IllegalArgumentException("the CI cell " + ci + " is not one the scenario applies to");
    }
    return selection().map(selected -> selected.stream().filter(applies)).orElseGet(() -> Stream.of(ci));
  }

  /**
   * Arguments {@code (cell, case name, case arguments...)}: in CI, each case runs in the next cell
   * of the rotation it applies to, the rotation going on from there; otherwise every case runs in
   * every selected cell it applies to.
   */
  static Stream<Arguments> across(List<Case> cases) {
    List<Arguments> arguments = new ArrayList<>();
    Optional<List<Cell>> selected = selection();
    int next = 0;
    for (Case scenarioCase : cases) {
      List<Cell> cells = new ArrayList<>();
      if (selected.isPresent()) {
        selected.get().stream().filter(scenarioCase.appliesTo()).forEach(cells::add);
      } else {
        int at = rotation(next, scenarioCase);
        cells.add(CELLS.get(at));
        next = (at + 1) % CELLS.size();
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

  /** The position of the first cell from {@code start} on (wrapping) that the case applies to. */
  private static int rotation(int start, Case scenarioCase) {
    for (int step = 0; step < CELLS.size(); step++) {
      int at = (start + step) % CELLS.size();
      if (scenarioCase.appliesTo().test(CELLS.get(at))) {
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
    if (value.equals(ALL)) {
      return Optional.of(CELLS);
    }
    List<Cell> chosen = new ArrayList<>();
    for (String label : value.split(",")) {
      chosen.add(CELLS.stream().filter(cell -> cell.label().equals(label.trim())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("-D" + CELLS_PROPERTY + " names an unknown cell '" + label.trim()
              + "'; expected " + CI + ", " + ALL + " or labels of " + Arrays.toString(CELLS.toArray()))));
    }
    return Optional.of(chosen);
  }
}
