package io.mergesink.bench.spark;

import io.mergesink.bench.CdcRows;
import io.mergesink.bench.KeySpace;
import io.mergesink.bench.Samples;
import io.mergesink.bench.Seconds;
import io.mergesink.core.changes.ChangeSet;
import io.mergesink.core.commit.FencedException;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.table.TableSpec;
import io.mergesink.core.writer.TableWriter;
import io.mergesink.core.writer.WriterOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The {@code spark} suite (bench/README.md): the alternative users run today, Spark with Delta Lake
 * ({@code MERGE INTO}, deletion vectors enabled, {@code local[2]}), against merge-core's writer,
 * on the same change batches (90% updates / 5% inserts / 5% deletes, coalesced: one change per
 * key) into two tables that start with the same rows. Each batch goes to both, alternating which
 * goes first; the clock covers the MERGE statement and {@code TableWriter.commit} only (building
 * the batch, and for Spark the local DataFrame, is excluded). Afterwards Spark reads both tables
 * and checks that they hold the same rows.
 *
 * <pre>
 * java -Xmx8g -jar bench-spark/target/mergesink-bench-spark.jar spark [--quick] [--base-rows=N] [--batch=N] [--warmups=N] [--batches=N] [--dir=PATH]
 * </pre>
 */
public final class SparkComparison {
  static final String SUITE = "spark";
  private static final int USAGE_ERROR = 2;
  private static final double UPDATE_SHARE = 0.90;
  private static final double INSERT_SHARE = 0.05;
  private static final int BASE_FILES = 8;
  private static final long SEED = 7;
  private static final String SHUFFLE_PARTITIONS = "4";
  private static final String MERGE = """
      MERGE INTO delta.`%s` t USING changes s ON t.id = s.id
      WHEN MATCHED AND s.op = 'd' THEN DELETE
      WHEN MATCHED THEN UPDATE SET t.name = s.name, t.amount = s.amount, t.updated_at = s.updated_at, t.quantity = s.quantity
      WHEN NOT MATCHED AND s.op <> 'd' THEN INSERT (id, name, amount, updated_at, quantity)
        VALUES (s.id, s.name, s.amount, s.updated_at, s.quantity)
      """;

  private SparkComparison() {}

  public static void main(String[] args) throws IOException {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("usage: java -Xmx8g -jar mergesink-bench-spark.jar spark [--quick] [--base-rows=N] [--batch=N] [--warmups=N] [--batches=N] [--dir=PATH]");
      System.exit(USAGE_ERROR);
      return;
    }
    Path directory = options.directory() != null ? options.directory() : Files.createTempDirectory("mergesink-spark");
    String sparkPath = directory.toAbsolutePath() + "/spark-merge";
    String corePath = directory.toAbsolutePath() + "/merge-core";
    System.err.printf("[spark] tables in %s; %,d base rows, %,d-change batches, %d warm-up + %d measured%n", directory,
        options.baseRows(), options.batch(), options.warmups(), options.batches());
    long start = System.nanoTime();
    SparkSession spark = SparkSession.builder()
        .master("local[2]")
        .appName("mergesink-bench-spark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", SHUFFLE_PARTITIONS)
        .config("spark.sql.datetime.java8API.enabled", "true")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      spark.sql("CREATE TABLE delta.`" + sparkPath + "` (id BIGINT NOT NULL, name STRING, amount DECIMAL(12,2), "
          + "updated_at TIMESTAMP, quantity INT) USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
      DeltaTable core = DeltaTable.forPath(new LocalStorage(), corePath);
      core.createIfAbsent(new TableSpec(CdcRows.SCHEMA, CdcRows.KEY, MergeStrategy.DELETION_VECTORS, Map.of()));

      KeySpace keys = new KeySpace(SEED);
      TableWriter loader = core.newAppendWriter(WriterOptions.defaults().withTargetFileSizeBytes(Long.MAX_VALUE));
      long remaining = options.baseRows();
      for (int file = 0; file < BASE_FILES; file++) {
        int count = Math.toIntExact(remaining / (BASE_FILES - file));
        ChangeSet inserts = keys.inserts(count);
        commit(loader, inserts);
        SparkRows.changes(spark, inserts).drop("op").coalesce(1).write().format("delta").mode("append").save(sparkPath);
        remaining -= count;
      }
      System.err.println("[spark] loaded both tables");

      TableWriter writer = core.newWriter(WriterOptions.defaults(MergeStrategy.DELETION_VECTORS));
      String merge = String.format(MERGE, sparkPath);
      double[] coreRates = new double[options.batches()];
      double[] sparkRates = new double[options.batches()];
      double[] ratios = new double[options.batches()];
      for (int batch = -options.warmups(); batch < options.batches(); batch++) {
        ChangeSet changes = keys.mixed(options.batch(), UPDATE_SHARE, INSERT_SHARE);
        Dataset<Row> frame = SparkRows.changes(spark, changes);
        frame.createOrReplaceTempView("changes");
        double coreSeconds;
        double sparkSeconds;
        if (Math.floorMod(batch, 2) == 0) {
          coreSeconds = timeCommit(writer, changes);
          sparkSeconds = timeSql(spark, merge);
        } else {
          sparkSeconds = timeSql(spark, merge);
          coreSeconds = timeCommit(writer, changes);
        }
        System.err.printf("[spark] batch %d: merge-core %.3f s, Spark MERGE %.3f s%n", batch, coreSeconds, sparkSeconds);
        if (batch >= 0) {
          coreRates[batch] = options.batch() / coreSeconds;
          sparkRates[batch] = options.batch() / sparkSeconds;
          ratios[batch] = sparkSeconds / coreSeconds;
        }
      }
      long sparkRows = spark.read().format("delta").load(sparkPath).count();
      long coreRows = spark.read().format("delta").load(corePath).count();
      long differing = spark.read().format("delta").load(sparkPath).exceptAll(spark.read().format("delta").load(corePath)).count()
          + spark.read().format("delta").load(corePath).exceptAll(spark.read().format("delta").load(sparkPath)).count();
      String lastMerge = spark.sql("DESCRIBE HISTORY delta.`" + sparkPath + "` LIMIT 1").select("operationMetrics").first().get(0)
          .toString();

      Samples core1 = Samples.of(coreRates);
      Samples spark1 = Samples.of(sparkRates);
      Samples ratio = Samples.of(ratios);
      System.out.printf("MergeSink vs Spark MERGE INTO: Spark %s + %s, local[2], shuffle partitions %s; %,d-row base table "
          + "(%d files), %,d-change batches 90/5/5, %d warm-up + %d measured batches; Java %s, %d CPUs, max heap %,d MiB, total %.0f s%n%n",
          spark.version(), deltaJar(), SHUFFLE_PARTITIONS,
          options.baseRows(), BASE_FILES, options.batch(), options.warmups(), options.batches(), System.getProperty("java.version"),
          Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() / (1024 * 1024), Seconds.since(start));
      System.out.println("| writer | changes/s per batch (median, min–max, n) |");
      System.out.println("|---|---|");
      System.out.println("| Spark + Delta MERGE INTO (deletion vectors) | " + spark1.describe("%,.0f", "").replace("  ", " ") + " |");
      System.out.println("| merge-core TableWriter (deletion vectors) | " + core1.describe("%,.0f", "").replace("  ", " ") + " |");
      System.out.println("| **merge-core / Spark** (per-batch time ratio) | " + ratio.describe("%.1f", "×") + " |");
      System.out.printf("%nBoth tables read back by Spark: %,d rows (Spark table) vs %,d rows (merge-core table), %d rows differ.%n",
          sparkRows, coreRows, differing);
      System.out.println("Spark's last MERGE operationMetrics: " + lastMerge);
    } finally {
      spark.stop();
    }
  }

  /** The delta-spark jar's file name, which carries its version. */
  private static String deltaJar() {
    String location = org.apache.spark.sql.delta.DeltaLog.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    return location.substring(location.lastIndexOf('/') + 1);
  }

  private static double timeCommit(TableWriter writer, ChangeSet changes) throws IOException {
    long start = System.nanoTime();
    commit(writer, changes);
    return Seconds.since(start);
  }

  private static double timeSql(SparkSession spark, String sql) {
    long start = System.nanoTime();
    spark.sql(sql).collect();
    return Seconds.since(start);
  }

  private static void commit(TableWriter writer, ChangeSet changes) throws IOException {
    try {
      writer.commit(changes);
    } catch (FencedException e) {
      throw new IllegalStateException("benchmark writer fenced on " + writer.snapshot().tableRoot(), e);
    }
  }

  /** The command line. */
  private record Options(long baseRows, int batch, int warmups, int batches, Path directory) {
    static Options parse(String[] args) {
      if (args.length == 0 || !args[0].equals(SUITE)) {
        throw new IllegalArgumentException("expected the suite name '" + SUITE + "' first, found " + Arrays.toString(args));
      }
      long baseRows = 1_000_000;
      int batch = 10_000;
      // Spark's batch time still fell after 3 warm-up batches (24 s, 22 s, 9 s, then 11 → 6 s).
      int warmups = 8;
      int batches = 10;
      Path directory = null;
      for (String arg : Arrays.copyOfRange(args, 1, args.length)) {
        String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : "";
        if (arg.equals("--quick")) {
          baseRows = 100_000;
          batch = 2_000;
          warmups = 1;
          batches = 3;
        } else if (arg.startsWith("--base-rows=")) {
          baseRows = Long.parseLong(value);
        } else if (arg.startsWith("--batch=")) {
          batch = Integer.parseInt(value);
        } else if (arg.startsWith("--warmups=")) {
          warmups = Integer.parseInt(value);
        } else if (arg.startsWith("--batches=")) {
          batches = Integer.parseInt(value);
        } else if (arg.startsWith("--dir=")) {
          directory = Path.of(value);
        } else {
          throw new IllegalArgumentException("unknown argument '" + arg + "'");
        }
      }
      return new Options(baseRows, batch, warmups, batches, directory);
    }
  }
}
