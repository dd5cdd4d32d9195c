package io.mergesink.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.mergesink.core.snapshot.Snapshot;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.table.DeltaTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A command on one table: the table path, {@code --json}, and Hadoop settings
 * ({@code --hadoop fs.s3a.endpoint=...}). Subclasses compute a result and print it as text or JSON.
 */
abstract class TableCommand implements Callable<Integer> {
  static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "Path or URI of the Delta table (e.g. /data/orders, s3a://bucket/orders).")
  String tablePath;

  @Option(names = "--json", description = "Print JSON for scripts instead of text.")
  boolean json;

  @Option(names = "--hadoop", paramLabel = "KEY=VALUE", description = "A Hadoop file system setting (repeatable).")
  Map<String, String> hadoop = Map.of();

  private Storage storage;

  @Override
  public final Integer call() throws IOException {
    try {
      run(spec.commandLine().getOut());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return 0;
  }

  abstract void run(PrintWriter out) throws IOException;

  Storage storage() {
    if (storage == null) {
      storage = Storages.forRoot(tablePath, hadoop);
    }
    return storage;
  }

  DeltaTable table() {
    return DeltaTable.forPath(storage(), tablePath);
  }

  Snapshot snapshot() throws IOException {
    return table().snapshot();
  }

  void printJson(PrintWriter out, Object value) throws IOException {
    out.println(JSON.writeValueAsString(value));
  }
}
