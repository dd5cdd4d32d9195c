package io.mergesink.connect.reliability;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The faults {@link FaultyStorage} injects (on local disk and on S3): a static, test-controlled list
 * of rules ("fail the 2nd create of a path matching {@code _delta_log/\d+\.json}"). Static because
 * the connector's storage lookup instantiates the storage; tests {@link #reset()} it before and
 * after use.
 *
 * <p>After a {@link Effect#CRASH} the plan is "dead" until {@link #reset()}: every further file
 * system call throws {@link SimulatedCrash}, as nothing more happens in a killed process.
 */
final class FaultPlan {
  /** The message Linux gives for ENOSPC. */
  static final String DISK_FULL_MESSAGE = "No space left on device";

  /** Where in a file's life a fault fires. */
  enum Step {
    /** Opening the file for writing: nothing is written. */
    CREATE,
    /** The second write call (or the close, for a file written in one call): part of the file is on disk. */
    WRITE,
    /** After the file was completely written and closed: it is there, but the writer sees a failure. */
    AFTER_CLOSE,
    /** Opening a file for reading (a stream, a whole read, a range, a Parquet input). */
    READ,
    /** Listing a directory (the path is the directory's). */
    LIST
  }

  /** What a fault does. */
  enum Effect {
    IO_ERROR,
    DISK_FULL,
    CRASH
  }

  /**
   * Fires at the {@code nth} (1-based) {@code step} on a path matching {@code path}, then
   * {@code repeat - 1} more times on the following matches.
   */
  record Fault(Step step, Pattern path, int nth, int repeat, Effect effect) {
    static Fault of(Step step, String pathRegex, int nth, Effect effect) {
      return new Fault(step, Pattern.compile(pathRegex), nth, 1, effect);
    }

    Fault times(int count) {
      return new Fault(step, path, nth, count, effect);
    }
  }

  /** A commit file ({@code _delta_log/<version>.json}). */
  static final String COMMIT = "_delta_log/\\d{20}\\.json$";
  /** A checkpoint ({@code _delta_log/<version>.checkpoint.parquet}). */
  static final String CHECKPOINT = "_delta_log/\\d{20}\\.checkpoint\\.parquet$";
  /** A deletion vector file. */
  static final String DV_FILE = "/deletion_vector_[^/]+\\.bin$";
  /** A data file. */
  static final String DATA_FILE = "/part-[^/]+\\.parquet$";
  /** An Iceberg table's Parquet file: a data file, or in a format version 2 table also a position delete file. */
  static final String ICEBERG_PARQUET = "/data/[^/]+\\.parquet$";
  /** An Iceberg deletion vector file (Puffin). */
  static final String ICEBERG_DV_FILE = "/data/[^/]+\\.puffin$";
  /** An Iceberg manifest. */
  static final String ICEBERG_MANIFEST = "/metadata/[^/]+-m\\d+\\.avro$";
  /** An Iceberg manifest list (one per snapshot). */
  static final String ICEBERG_MANIFEST_LIST = "/metadata/snap-[^/]+\\.avro$";
  /** An Iceberg table metadata file: a commit writes it, then the catalog points at it. */
  static final String ICEBERG_METADATA = "/metadata/[^/]+\\.metadata\\.json$";
  /** A Paimon data file in a bucket. */
  static final String PAIMON_DATA_FILE = "/bucket-\\d+/data-[^/]+$";
  /** A Paimon index file (deletion vectors). */
  static final String PAIMON_INDEX = "/index/index-[^/]+$";
  /** A Paimon manifest (not a manifest list). */
  static final String PAIMON_MANIFEST = "/manifest/manifest-(?!list)[^/]+$";
  /** A Paimon snapshot, published with the positions. */
  static final String PAIMON_SNAPSHOT = "/snapshot/snapshot-\\d+$";
  /** The log directory, as a listing names it. */
  static final String LOG_DIRECTORY = "/_delta_log/?$";

  private static final List<Rule> RULES = new ArrayList<>();
  private static final List<String> FIRED = new ArrayList<>();
  private static final List<String> CREATED = new ArrayList<>();
  private static String deadSince;

  private FaultPlan() {}

  static synchronized void add(Fault fault) {
    RULES.add(new Rule(fault));
  }

  /** Forgets every rule, what fired and what was created, and revives the storage (a restarted process). */
  static synchronized void reset() {
    RULES.clear();
    FIRED.clear();
    CREATED.clear();
    deadSince = null;
  }

  /** The faults that fired, as "effect step path", in order. */
  static synchronized List<String> fired() {
    return List.copyOf(FIRED);
  }

  /** The paths of every file whose {@link Step#CREATE} was reached since the last {@link #reset()}, in order. */
  static synchronized List<String> created() {
    return List.copyOf(CREATED);
  }

  /** Whether every rule has fired as often as it was told to. */
  static synchronized boolean exhausted() {
    return RULES.stream().allMatch(rule -> rule.remaining == 0);
  }

  /** Throws when the process is dead; called on every storage operation. */
  static synchronized void checkAlive(String operation, String path) {
    if (deadSince != null) {
      throw new SimulatedCrash(operation + " " + path + " after the process died at " + deadSince);
    }
  }

  /** Applies the first rule due at {@code step} of {@code path}. */
  static synchronized void at(Step step, String path) throws IOException {
    checkAlive(step.name(), path);
    if (step == Step.CREATE) {
      CREATED.add(path);
    }
    for (Rule rule : RULES) {
      if (rule.remaining == 0 || rule.fault.step() != step || !rule.fault.path().matcher(path).find()) {
        continue;
      }
      rule.seen++;
      if (rule.seen < rule.fault.nth()) {
        continue;
      }
      rule.remaining--;
      String where = step + " " + path;
      FIRED.add(rule.fault.effect() + " " + where);
      switch (rule.fault.effect()) {
        case IO_ERROR -> throw new IOException("injected I/O error at " + where);
        case DISK_FULL -> throw new IOException(DISK_FULL_MESSAGE + " (injected at " + where + ")");
        case CRASH -> {
          deadSince = where;
          throw new SimulatedCrash(where);
        }
        default -> throw new IllegalStateException("unknown effect " + rule.fault.effect());
      }
    }
  }

  private static final class Rule {
    final Fault fault;
    int seen;
    int remaining;

    Rule(Fault fault) {
      this.fault = fault;
      this.remaining = fault.repeat();
    }
  }
}
