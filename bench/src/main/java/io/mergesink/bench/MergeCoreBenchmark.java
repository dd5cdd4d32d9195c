package io.mergesink.bench;

import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs the merge-core benchmarks of bench/README.md in one JVM and prints a Markdown table of the
 * results on standard output (progress goes to standard error).
 *
 * <pre>
 * ./mvnw -q -B -pl bench -am package -DskipTests
 * java -Xmx8g -jar bench/target/mergesink-bench.jar merge-core [--quick] [--only=a,b] [--dir=PATH] [--keep] [--storage=local|hadoop]
 * </pre>
 *
 * <ul>
 *   <li>{@code --quick}: small sizes, a smoke test (the published figures come from the full run)
 *   <li>{@code --only}: a comma-separated subset of {@value UpsertVsAppend#NAME}, {@value FlushCost#NAME},
 *       {@value WriteAmplification#NAME}, {@value TableOpen#NAME}, {@value ScanCost#NAME}, {@value WideKeys#NAME},
 *       {@value MergeIntoCost#NAME}, {@value HistoryCost#NAME}, {@value FormatUpserts#NAME}
 *   <li>{@code --dir}: where the tables go (default: a new temporary directory)
 *   <li>{@code --keep}: leave the tables behind (default: delete them)
 * </ul>
 */
public final class MergeCoreBenchmark {
  static final String SUITE = "merge-core";
  private static final List<String> WORKLOADS = List.of(UpsertVsAppend.NAME, FlushCost.NAME, WriteAmplification.NAME, TableOpen.NAME,
      ScanCost.NAME, WideKeys.NAME, MergeIntoCost.NAME, HistoryCost.NAME, FormatUpserts.NAME);
  private static final int USAGE_ERROR = 2;

  private MergeCoreBenchmark() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("usage: java -Xmx8g -jar mergesink-bench.jar " + SUITE
          + " [--quick] [--only=" + String.join(",", WORKLOADS) + "] [--dir=PATH] [--keep] [--storage=local|hadoop]");
      System.exit(USAGE_ERROR);
      return;
    }
    BenchConfig config = options.quick() ? BenchConfig.quick() : BenchConfig.full();
    Path directory = options.directory() != null ? options.directory() : Files.createTempDirectory("mergesink-bench");
    Files.createDirectories(directory);
    System.err.println("[bench] tables in " + directory + "; " + config.describe());

    Storage storage = options.nioStorage() ? new io.mergesink.core.storage.LocalStorage() : HadoopStorage.withDefaults();
    BenchTables tables = new BenchTables(storage, directory.toAbsolutePath().toString());
    ResultTable report = new ResultTable();
    long start = System.nanoTime();
    try {
      for (String workload : options.workloads()) {
        System.err.println("[bench] running " + workload);
        switch (workload) {
          case UpsertVsAppend.NAME -> UpsertVsAppend.run(tables, config, report);
          case FlushCost.NAME -> FlushCost.run(tables, config, report);
          case WriteAmplification.NAME -> WriteAmplification.run(tables, config, report);
          case TableOpen.NAME -> TableOpen.run(storage, tables, config, report);
          case ScanCost.NAME -> ScanCost.run(storage, tables, config, report);
          case WideKeys.NAME -> WideKeys.run(tables, config, report);
          case MergeIntoCost.NAME -> MergeIntoCost.run(tables, config, report);
          case HistoryCost.NAME -> HistoryCost.run(tables, config, report);
          case FormatUpserts.NAME -> FormatUpserts.run(directory, config, report);
          default -> throw new IllegalStateException("unknown workload " + workload);
        }
      }
    } finally {
      if (!options.keep()) {
        TempDirectories.deleteRecursively(directory);
      }
    }
    String mode = (options.quick() ? "quick" : "full") + " mode, " + (options.nioStorage() ? "LocalStorage" : "HadoopStorage") + " storage";
    System.out.printf("MergeSink merge-core benchmark (%s), %s, %s %s, total %.0f s%n%n", mode, JvmDescription.describe(),
        System.getProperty("os.name"), System.getProperty("os.arch"), Seconds.since(start));
    System.out.print(report.toMarkdown());
  }

  /** The command line. */
  private record Options(boolean quick, List<String> workloads, Path directory, boolean keep, boolean nioStorage) {

    static Options parse(String[] args) {
      if (args.length == 0 || !args[0].equals(SUITE)) {
        throw new IllegalArgumentException("expected the suite name '" + SUITE + "' first, found " + Arrays.toString(args));
      }
      boolean quick = false;
      boolean keep = false;
      boolean nioStorage = true;
      Path directory = null;
      Set<String> workloads = new LinkedHashSet<>(WORKLOADS);
      for (String arg : Arrays.copyOfRange(args, 1, args.length)) {
        if (arg.equals("--quick")) {
          quick = true;
        } else if (arg.equals("--keep")) {
          keep = true;
        } else if (arg.equals("--storage=local")) {
          nioStorage = true;
        } else if (arg.equals("--storage=hadoop")) {
          nioStorage = false;
        } else if (arg.startsWith("--dir=")) {
          directory = Path.of(arg.substring("--dir=".length()));
        } else if (arg.startsWith("--only=")) {
          workloads = only(arg.substring("--only=".length()));
        } else {
          throw new IllegalArgumentException("unknown argument '" + arg + "'");
        }
      }
      return new Options(quick, new ArrayList<>(workloads), directory, keep, nioStorage);
    }

    private static Set<String> only(String list) {
      Set<String> chosen = new LinkedHashSet<>();
      for (String name : list.split(",")) {
        String workload = name.trim().toLowerCase(Locale.ROOT);
        if (!WORKLOADS.contains(workload)) {
          throw new IllegalArgumentException("unknown workload '" + name + "', expected some of " + WORKLOADS);
        }
        chosen.add(workload);
      }
      return chosen;
    }
  }
}
