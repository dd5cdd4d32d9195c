package io.mergesink.cli;

import io.mergesink.core.storage.StorageOptions;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.format.FormatTable;
import io.mergesink.ingest.format.paimon.PaimonFormat;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;
import org.apache.paimon.table.FileStoreTable;

/**
 * Where the CLI finds a Paimon table, and the table opened there through the engine's Paimon format,
 * the filesystem catalog the sink writes it with: a path {@code <warehouse>/<database>.db/<table>}.
 */
final class PaimonTableRef {
  /** The app id the engine's options require; the CLI records no positions. */
  private static final String APP_ID = "mergesink-cli";
  /** The suffix of a database's directory in a Paimon filesystem catalog. */
  private static final String DATABASE_SUFFIX = ".db";
  private static final Pattern URI_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");

  private final String table;
  private final Map<String, String> hadoop;

  /** @param table the TABLE parameter: the table's path or URI */
  PaimonTableRef(String table, Map<String, String> hadoop) {
    this.table = table;
    this.hadoop = Map.copyOf(hadoop);
  }

  /**
   * Opens the table; the caller closes it.
   *
   * @throws IllegalArgumentException no Paimon table there, or the path is not a filesystem catalog's table
   * @throws io.mergesink.ingest.errors.FatalIngestException the catalog cannot be opened
   */
  Opened open() {
    Path location = new Path(URI_SCHEME.matcher(table).matches() ? table : Paths.get(table).toAbsolutePath().normalize().toString());
    Path database = location.getParent();
    if (database == null || database.getParent() == null || !database.getName().endsWith(DATABASE_SUFFIX)) {
      throw new IllegalArgumentException("a Paimon table of a filesystem catalog is at <warehouse>/<database>.db/<table>, found " + table);
    }
    String databaseName = database.getName().substring(0, database.getName().length() - DATABASE_SUFFIX.length());
    String name = databaseName + "/" + location.getName();
    IngestOptions options = IngestOptions.builder(database.getParent().toString(), APP_ID).tableFormat(TableFormatName.PAIMON)
        .storage(StorageOptions.hadoop(hadoop)).build();
    PaimonFormat format = new PaimonFormat(options);
    try {
      FileStoreTable paimon = format.table(name).orElseThrow(() -> new IllegalArgumentException("no Paimon table at " + table));
      FormatTable formatTable = format.open(name, List.of(), List.of())
          .orElseThrow(() -> new IllegalArgumentException("no Paimon table at " + table));
      return new Opened(format, formatTable, paimon);
    } catch (RuntimeException e) {
      format.close();
      throw e;
    }
  }

  /**
   * An open Paimon table: the engine's view of it (positions, scans) and Paimon's own (snapshots,
   * files, options), both on the catalog the format owns and {@link #close} releases.
   */
  record Opened(PaimonFormat format, FormatTable table, FileStoreTable paimon) implements AutoCloseable {
    @Override
    public void close() {
      format.close();
    }
  }
}
