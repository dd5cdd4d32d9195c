package io.mergesink.bench;

import java.io.IOException;
import java.util.Arrays;

/**
 * The benchmark jar's entry point: {@code java -Xmx8g -jar bench/target/mergesink-bench.jar <suite> [options]}
 * with suite {@code merge-core} ({@link MergeCoreBenchmark}), {@code e2e} ({@link E2eBenchmark}),
 * {@code peers} ({@link PeersBenchmark}), {@code storage} ({@link StorageBenchmark}: local disk against S3) or
 * {@code transactions} ({@link TransactionsBenchmark}: whole source transactions and consistent cuts).
 * The Spark comparison lives in the separate {@code bench-spark} module, so this jar never pulls Spark.
 */
public final class Bench {
  private static final int USAGE_ERROR = 2;

  private Bench() {}

  public static void main(String[] args) throws IOException {
    String suite = args.length == 0 ? "" : args[0];
    switch (suite) {
      case MergeCoreBenchmark.SUITE -> MergeCoreBenchmark.main(args);
      case E2eBenchmark.SUITE -> E2eBenchmark.main(args);
      case PeersBenchmark.SUITE -> PeersBenchmark.main(args);
      case BufferMemory.SUITE -> BufferMemory.main(args);
      case SinkTaskProfile.SUITE -> SinkTaskProfile.main(args);
      case StorageBenchmark.SUITE -> StorageBenchmark.main(args);
      case CdcModesBenchmark.SUITE -> CdcModesBenchmark.main(args);
      case ConverterBenchmark.SUITE -> ConverterBenchmark.main(args);
      case TablesBenchmark.SUITE -> TablesBenchmark.main(args);
      case TransactionsBenchmark.SUITE -> TransactionsBenchmark.main(args);
      default -> {
        System.err.println("expected a suite name first (" + MergeCoreBenchmark.SUITE + ", " + E2eBenchmark.SUITE + ", "
            + PeersBenchmark.SUITE + ", " + StorageBenchmark.SUITE + ", " + CdcModesBenchmark.SUITE + ", " + ConverterBenchmark.SUITE + ", "
            + TablesBenchmark.SUITE + ", " + TransactionsBenchmark.SUITE + ", "
            + BufferMemory.SUITE + " or " + SinkTaskProfile.SUITE
            + "), found " + Arrays.toString(args));
        System.exit(USAGE_ERROR);
      }
    }
  }
}
