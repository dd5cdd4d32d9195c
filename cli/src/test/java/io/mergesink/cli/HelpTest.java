package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every subcommand prints its usage for {@code mergesink CMD --help}, {@code -h} and {@code mergesink help CMD}, without a table. */
class HelpTest {
  @ParameterizedTest
  @ValueSource(strings = {"describe", "history", "offsets", "scan", "compact", "vacuum", "checkpoint"})
  void everySubcommandPrintsItsUsage(String command) {
    for (String[] args : new String[][] {{command, "--help"}, {command, "-h"}, {"help", command}}) {
      CliRun help = CliRun.of(args);

      assertThat(help.code()).as(String.join(" ", args) + ": " + help.err()).isZero();
      assertThat(help.out()).as(String.join(" ", args)).startsWith("Usage: mergesink " + command + " ").contains("TABLE", "--json");
      assertThat(help.err()).isEmpty();
    }
  }
}
