package io.mergesink.localpg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs PostgreSQL server programs ({@code initdb}, {@code pg_ctl}) from one {@code bin} directory,
 * as another OS user through {@code runuser -u <user> --} when one is given (PostgreSQL refuses
 * to run as root), otherwise as the current user. A copy of the connector tests' helper of
 * the same name: main code cannot use test classes.
 */
final class PostgresCommands {
  private static final long COMMAND_TIMEOUT_SECONDS = 120;

  private final Path bin;
  private final Path workingDir;
  private final Optional<String> osUser;

  PostgresCommands(Path bin, Path workingDir, Optional<String> osUser) {
    this.bin = bin;
    this.workingDir = workingDir;
    this.osUser = osUser;
  }

  /**
   * Runs {@code program} from the bin directory and returns its output (stdout and stderr).
   *
   * @throws IllegalStateException when it exits non-zero or does not finish within
   *     {@value #COMMAND_TIMEOUT_SECONDS} seconds; the message has the command and its output
   */
  String run(String program, String... args) {
    List<String> command = new ArrayList<>();
    osUser.ifPresent(user -> command.addAll(List.of("runuser", "-u", user, "--")));
    command.add(bin.resolve(program).toString());
    command.addAll(List.of(args));
    try {
      Path output = Files.createTempFile("mergesink-pg-cmd-", ".log");
      try {
        Process process = new ProcessBuilder(command).directory(workingDir.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException("PostgreSQL command did not finish within " + COMMAND_TIMEOUT_SECONDS
              + " s: " + String.join(" ", command) + "\n" + Files.readString(output, StandardCharsets.UTF_8));
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
          throw new IllegalStateException("PostgreSQL command failed with exit code " + process.exitValue() + ": "
              + String.join(" ", command) + "\n" + text);
        }
        return text;
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
    }
  }

  /** Makes the OS user the owner of {@code path}, so the server programs can write it. */
  void handOver(Path path) {
    if (osUser.isEmpty()) {
      return;
    }
    try {
      UserPrincipal owner = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(osUser.get());
      Files.setOwner(path, owner);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make OS user " + osUser.get() + " the owner of " + path
          + " (the 'postgres' user comes with Debian's postgresql package)", e);
    }
  }
}
