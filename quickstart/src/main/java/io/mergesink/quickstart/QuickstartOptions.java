package io.mergesink.quickstart;

import io.mergesink.localpg.LocalPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The command line of {@link Quickstart}.
 *
 * @param tableDir where the table goes ({@code <tableDir>/public/orders}); kept after the demo
 * @param source where change events come from
 * @param rounds how many rounds of changes the workload makes after the initial orders
 * @param roundInterval pause between two rounds (the demo's pace; 0 runs them back to back)
 * @param seed seed of the workload's random choices
 * @param storage where the table lives: the table directory, or an S3 server or Azurite the demo starts
 * @param format the table format the sink writes
 */
record QuickstartOptions(Path tableDir, SourceMode source, int rounds, Duration roundInterval, long seed,
    TableStorage storage, TableFormat format) {
  static final Path DEFAULT_TABLE_DIR = Path.of("quickstart-tables");
  static final int DEFAULT_ROUNDS = 20;
  static final Duration DEFAULT_ROUND_INTERVAL = Duration.ofSeconds(1);
  static final long DEFAULT_SEED = 42;
  /** The SQLite database of the Iceberg catalog, in the table directory. */
  static final String ICEBERG_CATALOG_FILE = "iceberg-catalog.db";

  static final String USAGE = String.join("\n",
      "Usage: ./quickstart.sh [options]",
      "  --table-dir DIR        where the table is written (default: ./" + DEFAULT_TABLE_DIR + ")",
      "  --source MODE          auto (default): PostgreSQL + Debezium when PostgreSQL server binaries are",
      "                         installed (/usr/lib/postgresql/*/bin/initdb), else the bundled stream;",
      "                         postgres; bundled",
      "  --rounds N             rounds of inserts, updates and deletes (default: " + DEFAULT_ROUNDS + ")",
      "  --round-interval-ms N  pause between rounds (default: " + DEFAULT_ROUND_INTERVAL.toMillis() + ")",
      "  --seed N               seed of the workload (default: " + DEFAULT_SEED + ")",
      "  --storage KIND         local (default): the table directory; s3: bucket '" + TableLocation.BUCKET + "' of a",
      "                         local S3 server (S3Proxy) the demo starts, its objects kept as files under",
      "                         the table directory; azure: container '" + TableLocation.BUCKET + "' of a local",
      "                         Azure Blob service (Azurite, needs Node.js) the demo starts, the table copied",
      "                         to " + TableLocation.AZURE_COPY_DIR + " in the table directory at the end",
      "  --format FORMAT        delta (default); iceberg: an Iceberg table in a JDBC catalog whose database",
      "                         is the SQLite file " + ICEBERG_CATALOG_FILE + " in the table directory (local storage only);",
      "                         paimon: a Paimon primary-key table in a filesystem catalog whose warehouse is",
      "                         the table directory (local storage only)",
      "  --help                 this text",
      "Stop it early with Ctrl-C: it still waits for the sink, prints the summary and keeps the table.");

  /**
   * @throws UsageException for an Iceberg table in an object store, which the sink does not write yet,
   *     or a Paimon table there, which the demo does not read
   */
  QuickstartOptions {
    if (format == TableFormat.ICEBERG && storage != TableStorage.LOCAL) {
      throw new UsageException("--format iceberg takes --storage local only: the sink does not write Iceberg tables "
          + "in object stores yet");
    }
    if (format == TableFormat.PAIMON && storage != TableStorage.LOCAL) {
      throw new UsageException("--format paimon takes --storage local only: the demo reads its Paimon table from the "
          + "table directory");
    }
  }

  /** Delta tables. */
  QuickstartOptions(Path tableDir, SourceMode source, int rounds, Duration roundInterval, long seed,
      TableStorage storage) {
    this(tableDir, source, rounds, roundInterval, seed, storage, TableFormat.DELTA);
  }

  /** Where the table lives. */
  enum TableStorage { LOCAL, S3, AZURE }

  /** The table format the sink writes ({@code table.format}). */
  enum TableFormat { DELTA, ICEBERG, PAIMON }

  /** Where change events come from. */
  enum SourceMode {
    AUTO, POSTGRES, BUNDLED;

    /** {@link #AUTO} resolved: PostgreSQL when its server binaries are installed. */
    SourceMode resolve() {
      if (this != AUTO) {
        return this;
      }
      return LocalPostgres.available() ? POSTGRES : BUNDLED;
    }
  }

  /** Thrown for a command line that cannot be parsed; the message says what was wrong. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** Whether {@code args} ask for the usage text. */
  static boolean wantsHelp(List<String> args) {
    return args.contains("--help") || args.contains("-h");
  }

  /**
   * Parses {@code args} ({@code --name value} pairs).
   *
   * @throws UsageException for an unknown option, a missing value, a value of the wrong kind, or
   *     {@code --format iceberg} or {@code paimon} with {@code --storage s3} or {@code azure}
   */
  static QuickstartOptions parse(List<String> args) {
    Path tableDir = DEFAULT_TABLE_DIR;
    SourceMode source = SourceMode.AUTO;
    int rounds = DEFAULT_ROUNDS;
    Duration interval = DEFAULT_ROUND_INTERVAL;
    long seed = DEFAULT_SEED;
    TableStorage storage = TableStorage.LOCAL;
    TableFormat format = TableFormat.DELTA;
    for (int i = 0; i < args.size(); i += 2) {
      String name = args.get(i);
      if (i + 1 >= args.size()) {
        throw new UsageException("option " + name + " needs a value");
      }
      String value = args.get(i + 1);
      switch (name) {
        case "--table-dir" -> tableDir = Path.of(value);
        case "--source" -> source = sourceMode(value);
        case "--rounds" -> rounds = nonNegative(name, value);
        case "--round-interval-ms" -> interval = Duration.ofMillis(nonNegative(name, value));
        case "--seed" -> seed = number(name, value);
        case "--storage" -> storage = tableStorage(value);
        case "--format" -> format = tableFormat(value);
        default -> throw new UsageException("unknown option " + name);
      }
    }
    return new QuickstartOptions(tableDir, source, rounds, interval, seed, storage, format);
  }

  private static TableFormat tableFormat(String value) {
    try {
      return TableFormat.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--format must be delta, iceberg or paimon, not '" + value + "'");
    }
  }

  private static TableStorage tableStorage(String value) {
    try {
      return TableStorage.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--storage must be local, s3 or azure, not '" + value + "'");
    }
  }

  private static SourceMode sourceMode(String value) {
    try {
      return SourceMode.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--source must be auto, postgres or bundled, not '" + value + "'");
    }
  }

  private static int nonNegative(String name, String value) {
    long number = number(name, value);
    if (number < 0 || number > Integer.MAX_VALUE) {
      throw new UsageException(name + " must be a number from 0 to " + Integer.MAX_VALUE + ", not " + value);
    }
    return (int) number;
  }

  private static long number(String name, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a whole number, not '" + value + "'");
    }
  }
}
