package io.mergesink.connect.reliability;

import io.mergesink.connect.MergeSinkConnector;
import io.mergesink.connect.testing.S3SinkOptions;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.storage.azure.AzureStorage;
import io.mergesink.core.storage.s3.S3Storage;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.core.testing.TestS3;
import io.mergesink.ingest.config.AzureStoreOptions;
import io.mergesink.ingest.config.S3StoreOptions;
import io.mergesink.ingest.testing.IcebergTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/** Sink configurations and change workloads the reliability scenarios share. */
final class Workloads {
  static final String TOPIC = "pg.public.customers";
  static final String CONNECTOR = "mergesink";
  /** Commits come from full buffers and preCommit only, so a scenario runs the same way every time. */
  static final String NEVER_BY_TIMER_MS = "3600000";
  /** Records per partition a task polls at once, unless a scenario says otherwise. */
  static final int BATCH = 30;

  private Workloads() {}

  /**
   * The configuration of a sink in {@code cell} writing its tables where the cell keeps them (under
   * {@code dir}, or in a bucket of the test S3 server or a container of the test Azurite named after
   * it), committing every {@code bufferRecords} records (and at preCommit), with a checkpoint every 4 commits.
   */
  static Map<String, String> config(Cell cell, Path dir, int bufferRecords) {
    return catalog(cell, cell.apply(switch (cell.store()) {
      case LOCAL -> localConfig(dir, bufferRecords);
      case S3 -> s3Config(s3Root(dir), bufferRecords);
      case AZURE -> azureConfig(azureRoot(dir), bufferRecords);
    }));
  }

  /**
   * {@link #config} with storage faults where {@link FaultPlan} says: through {@link FaultyStorage}
   * over the local storage on local disk, over the S3 or Azure storage in those stores.
   */
  static Map<String, String> faultyConfig(Cell cell, Path dir, int bufferRecords) {
    Map<String, String> config = switch (cell.store()) {
      case LOCAL -> faultyConfig(dir, bufferRecords);
      case S3 -> s3Config(FaultyStorage.FAULTY_S3 + s3Root(dir).substring("s3".length()), bufferRecords);
      case AZURE -> azureConfig(FaultyStorage.FAULTY_AZURE + azureRoot(dir).substring("wasbs".length()), bufferRecords);
    };
    return catalog(cell, cell.apply(config));
  }

  /**
   * {@code config} of an Iceberg cell whose table root is not on a Hadoop file system (S3, a
   * fault-injecting root) with a JDBC catalog of its own, the root as its warehouse: the Hadoop
   * catalog's rename commit is refused there. Its tables' files then go through the sink's storage.
   */
  private static Map<String, String> catalog(Cell cell, Map<String, String> config) {
    String root = config.get("table.root");
    if (!cell.isIceberg() || Storages.onHadoopFileSystem(root)) {
      return config;
    }
    Map<String, String> catalogued = new HashMap<>(config);
    catalogued.putAll(IcebergTables.jdbcCatalog(root));
    return catalogued;
  }

  /**
   * The table of {@link #TOPIC} as {@link #config} places it in the cell's format, as the cell's
   * reader ({@link Cell#tables()}) and {@link io.mergesink.ingest.testing.TableAudit} open it.
   */
  static String table(Cell cell, Path dir) {
    return switch (cell.store()) {
      case LOCAL -> cell.tables().location(dir, TOPIC);
      case S3 -> cell.tables().location(s3Root(dir), TOPIC);
      case AZURE -> azureRoot(dir) + "/" + TOPIC;
    };
  }

  /** Our own storage for the tables of {@code cell} (for other writers of the table); the caller closes it. */
  static Storage storage(Cell cell, Path dir) {
    return switch (cell.store()) {
      case LOCAL -> HadoopStorage.withDefaults();
      case S3 -> S3Storage.create(TestS3.s3Options());
      case AZURE -> AzureStorage.create(azureRoot(dir), TestAzurite.azureOptions());
    };
  }

  /**
   * {@code s3://<bucket>/tables} on the test S3 server, the bucket named after the test's directory
   * (so one test's tables never meet another's), created when missing; Delta Kernel reads it through S3A.
   */
  private static String s3Root(Path dir) {
    TestS3.kernelReadsS3();
    return TestS3.s3Root(storeName(dir));
  }

  /**
   * {@code wasbs://<container>@devstoreaccount1.blob.core.windows.net/tables} on the test Azurite,
   * the container named after the test's directory, created when missing; Delta Kernel reads it in place.
   */
  private static String azureRoot(Path dir) {
    TestAzurite.kernelReadsAzure();
    return TestAzurite.azureRoot(storeName(dir));
  }

  /** A bucket or container name of the test's directory: lower case, letters, digits and dashes, at most 63 characters. */
  private static String storeName(Path dir) {
    String name = ("rel-" + dir.getFileName()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    return name.substring(0, Math.min(name.length(), 63));
  }

  /** The sink of {@link #localConfig} with its tables under an {@code s3://} root of the test S3 server. */
  private static Map<String, String> s3Config(String root, int bufferRecords) {
    Map<String, String> config = sinkConfig(root, bufferRecords);
    config.putAll(S3SinkOptions.testServer());
    config.put(S3StoreOptions.RETRIES, "2");
    return config;
  }

  /** The sink of {@link #localConfig} with its tables under a {@code wasbs://} root of the test Azurite. */
  private static Map<String, String> azureConfig(String root, int bufferRecords) {
    Map<String, String> config = sinkConfig(root, bufferRecords);
    config.put(AzureStoreOptions.ENDPOINT, TestAzurite.azurite().accountEndpoint().toString());
    config.put(AzureStoreOptions.ACCOUNT_KEY, TestAzurite.ACCOUNT_KEY);
    config.put(AzureStoreOptions.RETRIES, "2");
    return config;
  }

  /**
   * A sink writing tables under {@code root} on local disk through {@link FaultyStorage}, committing
   * every {@code bufferRecords} records (and at preCommit), with a checkpoint every 4 commits.
   */
  static Map<String, String> faultyConfig(Path root, int bufferRecords) {
    Map<String, String> config = localConfig(root, bufferRecords);
    config.put("table.root", FaultyStorage.FAULTY_LOCAL + "://" + root.toAbsolutePath());
    return config;
  }

  /** The same sink on plain local paths (commits published with hard links). */
  static Map<String, String> localConfig(Path root, int bufferRecords) {
    return sinkConfig(root.toAbsolutePath().toString(), bufferRecords);
  }

  private static Map<String, String> sinkConfig(String root, int bufferRecords) {
    Map<String, String> config = new HashMap<>();
    config.put("name", CONNECTOR);
    config.put("connector.class", MergeSinkConnector.class.getName());
    config.put("topics", TOPIC);
    config.put("table.root", root);
    config.put("commit.interval.ms", NEVER_BY_TIMER_MS);
    config.put("buffer.max.records", Integer.toString(bufferRecords));
    config.put("checkpoint.interval", "4");
    config.put("flush.pipelined", Boolean.toString(Matrix.pipelinedFlush()));
    Matrix.indexBudget().ifPresent(bytes -> config.put("index.memory.max.bytes", bytes));
    return config;
  }

  /** Inserts of {@code keys} keys, then updates, deletes (half with tombstones), re-inserts and bursts on hot keys. */
  static void mixed(RecordLog log, int keys, Random random) {
    for (long id = 0; id < keys; id++) {
      log.upsert(id);
    }
    changes(log, keys, keys, random);
  }

  /** {@code count} random changes over {@code keys} keys, skewed to low ids: updates, deletes, key changes. */
  static void changes(RecordLog log, int keys, int count, Random random) {
    for (int i = 0; i < count; i++) {
      long id = skewed(keys, random);
      int dice = random.nextInt(20);
      if (dice < 13) {
        log.upsert(id);
      } else if (dice < 17) {
        if (log.contains(id)) {
          log.delete(id, random.nextBoolean());
        } else {
          log.upsert(id);
        }
      } else {
        log.changeKey(id, keys + random.nextInt(keys));
      }
    }
  }

  /**
   * {@code count} changes of keys the source table has now (written before): updates, and deletes
   * (half with tombstones) of about one in five.
   */
  static void touchExisting(RecordLog log, int count, Random random) {
    List<Long> existing = new ArrayList<>(log.ids());
    Collections.sort(existing);
    for (int i = 0; i < count && !existing.isEmpty(); i++) {
      int index = random.nextInt(existing.size());
      long id = existing.get(index);
      if (random.nextInt(5) == 0) {
        log.delete(id, random.nextBoolean());
        existing.set(index, existing.get(existing.size() - 1));
        existing.remove(existing.size() - 1);
      } else {
        log.upsert(id);
      }
    }
  }

  /**
   * {@code rounds} rounds of updates and deletes of keys written before and re-inserts of deleted
   * keys while {@code group} polls; in about one round of four a task dies and another takes over.
   *
   * @return how many tasks died
   */
  static int touchExistingWhileRunning(RecordLog log, int keys, TaskGroup group, int rounds, Random random) {
    int kills = 0;
    for (int round = 0; round < rounds; round++) {
      touchExisting(log, 150, random);
      reinsert(log, keys, 30, random);
      group.pollAll(BATCH, random, 3);
      if (random.nextInt(4) == 0) {
        group.killOne(random);
        kills++;
      }
    }
    return kills;
  }

  /** Up to {@code count} inserts of keys in [0, keys) the source table does not have (deleted before, or new). */
  static void reinsert(RecordLog log, int keys, int count, Random random) {
    int inserted = 0;
    for (int tries = 0; tries < 10 * count && inserted < count; tries++) {
      long id = random.nextInt(keys);
      if (!log.contains(id)) {
        log.upsert(id);
        inserted++;
      }
    }
  }

  /** A key in [0, keys) where low ids are far more likely (a few hot customers). */
  static long skewed(int keys, Random random) {
    double u = random.nextDouble();
    return (long) (keys * u * u * u);
  }

  /** The seed for a randomised scenario: {@code -Dsoak.seed} when given, else a fresh one; printed for replay. */
  static long seed(String scenario) {
    String given = System.getProperty("soak.seed");
    long seed = given == null || given.isBlank() ? System.nanoTime() : Long.parseLong(given.trim());
    System.out.printf("RELIABILITY scenario=%s seed=%d (replay with -Dsoak.seed=%d)%n", scenario, seed, seed);
    return seed;
  }

  /**
   * {@code config} with {@code truncate.enabled=true}; in history cells also {@code
   * lookup.scope=table}: a history truncate closes the current rows its task's key index covers, so
   * only with the table in scope does it close every current row as the source's TRUNCATE did
   * (docs/cdc-semantics.md, "Limits").
   */
  static Map<String, String> truncating(Cell cell, Map<String, String> config) {
    Map<String, String> truncating = with(config, "truncate.enabled", "true");
    if (cell.mode().keepsHistory()) {
      truncating.put("lookup.scope", "table");
    }
    return truncating;
  }

  static Map<String, String> with(Map<String, String> config, String key, String value) {
    Map<String, String> copy = new HashMap<>(config);
    copy.put(key, value);
    return copy;
  }
}
