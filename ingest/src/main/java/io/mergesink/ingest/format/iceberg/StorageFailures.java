package io.mergesink.ingest.format.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Iceberg reports a failed read or write of its file IO unchecked ({@link UncheckedIOException},
 * Iceberg's {@code RuntimeIOException}); the engine retries a storage failure when it is an
 * {@link IOException} (a flush keeps its changes buffered and commits them again), so the format's
 * table operations hand it on as one. Iceberg's own commit exceptions stay what they are.
 */
final class StorageFailures {
  private StorageFailures() {}

  /** An operation on an Iceberg table that may meet a storage failure. */
  @FunctionalInterface
  interface TableCall<T, E extends Exception> {
    T run() throws IOException, E;
  }

  /** An action on an Iceberg table that may meet a storage failure. */
  @FunctionalInterface
  interface TableAction {
    void run() throws IOException;
  }

  /** Runs {@code action}, a storage failure in it thrown as the {@link IOException} it is. */
  static void run(TableAction action) throws IOException {
    StorageFailures.<Void, RuntimeException>checked(() -> {
      action.run();
      return null;
    });
  }

  /** The result of {@code call}, a storage failure in it thrown as the {@link IOException} it is. */
  static <T, E extends Exception> T checked(TableCall<T, E> call) throws IOException, E {
    try {
      return call.run();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
