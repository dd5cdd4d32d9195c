package io.mergesink.ingest.testing;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.testing.TestS3;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;

/**
 * Paimon tables as an outside reader sees them: loaded from a filesystem catalog and read with
 * Paimon's own {@link ReadBuilder} (deletion vectors and merges applied), independently of the
 * sink's format package.
 */
public final class PaimonTables {
  private static final String POSITION_PREFIX = "mergesink.position.";

  private PaimonTables() {}

  /**
   * Table {@code table} of database {@code database} in the filesystem catalog on {@code warehouse}.
   * A warehouse on the test S3 server is read through Paimon's Hadoop file IO and Hadoop's S3A, not
   * through the sink's storage.
   */
  public static FileStoreTable load(String warehouse, String database, String table) {
    Configuration hadoop = new Configuration();
    if (Storages.isS3(warehouse)) {
      TestS3.s3aSettings(TestS3.s3()).forEach(hadoop::set);
    }
    CatalogContext context = CatalogContext.create(Options.fromMap(Map.of("warehouse", warehouse)), hadoop);
    try (Catalog catalog = CatalogFactory.createCatalog(context)) {
      return (FileStoreTable) catalog.getTable(Identifier.create(database, table));
    } catch (Exception e) {
      throw new IllegalStateException("cannot load Paimon table " + database + "." + table + " from " + warehouse, e);
    }
  }

  /** Every row of the latest snapshot, strings as {@link String}, decimals as {@link BigDecimal}. */
  public static List<Row> readRows(FileStoreTable table) {
    ReadBuilder read = table.newReadBuilder();
    List<DataField> fields = table.rowType().getFields();
    List<Row> rows = new ArrayList<>();
    try {
      read.newRead().createReader(read.newScan().plan()).forEachRemaining(row -> rows.add(toRow(fields, row)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static Row toRow(List<DataField> fields, InternalRow row) {
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      DataType type = fields.get(i).type();
      if (row.isNullAt(i)) {
        continue;
      }
      values[i] = switch (type.getTypeRoot()) {
        case INTEGER -> row.getInt(i);
        case BIGINT -> row.getLong(i);
        case VARCHAR -> row.getString(i).toString();
        case BOOLEAN -> row.getBoolean(i);
        case DOUBLE -> row.getDouble(i);
        case DECIMAL -> row.getDecimal(i, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale()).toBigDecimal();
        default -> throw new IllegalArgumentException("the test reader does not read " + type);
      };
    }
    return Row.of(values);
  }

  /** The positions the latest snapshot records in its properties, by id. */
  public static Map<String, Long> positions(FileStoreTable table) {
    Map<String, Long> positions = new TreeMap<>();
    Snapshot latest = table.snapshotManager().latestSnapshot();
    if (latest != null && latest.properties() != null) {
      latest.properties().forEach((key, value) -> {
        if (key.startsWith(POSITION_PREFIX)) {
          positions.put(key.substring(POSITION_PREFIX.length()), Long.parseLong(value));
        }
      });
    }
    return positions;
  }
}
