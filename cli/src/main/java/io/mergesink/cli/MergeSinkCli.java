package io.mergesink.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ScopeType;

/**
 * {@code mergesink <command> <table> [options]}. Exit codes: 0 success, 1 the command failed
 * (one line on stderr says why), 2 the command line was wrong.
 */
// INHERIT gives every subcommand -h/--help (and -V/--version), so `mergesink vacuum --help` prints
// usage instead of asking for the table; `mergesink help CMD` does the same.
@Command(name = "mergesink", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, versionProvider = MergeSinkCli.Version.class,
    description = "Inspect and maintain Delta, Iceberg and Paimon tables written by MergeSink.",
    subcommands = {DescribeCommand.class, HistoryCommand.class, OffsetsCommand.class, ScanCommand.class, CompactCommand.class,
        VacuumCommand.class, CheckpointCommand.class, CutCommand.class, HelpCommand.class})
public final class MergeSinkCli {
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  public static void main(String[] args) {
    int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    System.exit(code);
  }

  /** Runs one command line, writing to {@code out} and {@code err}; returns the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new MergeSinkCli());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExitCodeExceptionMapper(e -> EXIT_FAILED);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("mergesink " + commandLine.getCommandName() + ": error: " + oneLine(e));
      commandLine.getErr().flush();
      return EXIT_FAILED;
    });
    cli.setParameterExceptionHandler((e, parseArgs) -> {
      CommandLine commandLine = e.getCommandLine();
      commandLine.getErr().println("mergesink: " + e.getMessage() + " (see '" + commandLine.getCommandSpec().qualifiedName() + " --help')");
      commandLine.getErr().flush();
      return EXIT_USAGE;
    });
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** The exception's message on one line, with the cause's when it adds something. */
  static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    Throwable cause = e.getCause();
    if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
      message = message + ": " + cause.getMessage();
    }
    return message.replaceAll("\\s*\\R\\s*", " ");
  }

  /** The version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = MergeSinkCli.class.getPackage().getImplementationVersion();
      return new String[] {"mergesink " + (version == null ? "dev" : version)};
    }
  }
}
