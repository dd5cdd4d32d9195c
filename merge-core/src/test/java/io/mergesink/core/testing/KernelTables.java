package io.mergesink.core.testing;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MetadataColumnSpec;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The independent reader of every test: reads Delta tables with Delta Kernel (the version of the
 * {@code delta.kernel.version} property, 4.4.0; default engine on Hadoop's local file system) and
 * converts what Kernel returns into MergeSink's own schema model and in-memory values (see
 * {@link DataType}), so tests compare with {@link Row}s.
 *
 * <p>Rows come from the latest snapshot with deletion vectors applied (Kernel's selection vector),
 * in no particular order. I/O failures surface as {@link UncheckedIOException} so tests stay terse.
 */
public final class KernelTables {
  private static final Configuration CONF = new Configuration();
  private static final Engine ENGINE = DefaultEngine.create(CONF);

  private KernelTables() {}

  /**
   * Adds Hadoop settings to the reader's configuration, e.g. S3A's endpoint and keys for tables on a
   * test S3 server ({@link TestS3#kernelReadsS3()}). Settings apply to file systems the reader
   * has not opened yet.
   */
  public static synchronized void configure(java.util.Map<String, String> settings) {
    settings.forEach(CONF::set);
  }

  /** Every live row of the latest snapshot, values converted to MergeSink's representation. */
  public static List<Row> readRows(String tablePath) {
    return readRows(tablePath, latestSnapshot(tablePath));
  }

  /** Every live row of the snapshot at {@code version}. */
  public static List<Row> readRows(String tablePath, long version) {
    return readRows(tablePath, snapshotAt(tablePath, version));
  }

  /**
   * Every live row of the latest snapshot followed by its stable row id and row commit version, as
   * Kernel reconstructs them (its {@code ROW_ID} and {@code ROW_COMMIT_VERSION} metadata columns:
   * the materialized value when not null, else the file's {@code baseRowId} plus the row's position,
   * or its {@code defaultRowCommitVersion}; PROTOCOL.md, "Reader Requirements for Row Tracking").
   */
  public static List<Row> readRowsWithRowTracking(String tablePath) {
    Snapshot snapshot = latestSnapshot(tablePath);
    io.delta.kernel.types.StructType schema = snapshot.getSchema()
        .addMetadataColumn("row_id", MetadataColumnSpec.ROW_ID)
        .addMetadataColumn("row_commit_version", MetadataColumnSpec.ROW_COMMIT_VERSION);
    return readRows(tablePath, snapshot.getScanBuilder().withReadSchema(schema).build());
  }

  private static List<Row> readRows(String tablePath, Snapshot snapshot) {
    return readRows(tablePath, snapshot.getScanBuilder().build());
  }

  private static List<Row> readRows(String tablePath, Scan scan) {
    io.delta.kernel.data.Row scanState = scan.getScanState(ENGINE);
    io.delta.kernel.types.StructType physicalReadSchema = ScanStateRow.getPhysicalDataReadSchema(scanState);
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> scanFiles = scan.getScanFiles(ENGINE)) {
      while (scanFiles.hasNext()) {
        try (CloseableIterator<io.delta.kernel.data.Row> scanFileRows = scanFiles.next().getRows()) {
          while (scanFileRows.hasNext()) {
            readScanFile(scanState, scanFileRows.next(), physicalReadSchema, rows);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading table " + tablePath + " with Delta Kernel", e);
    }
    return rows;
  }

  /** The version of the latest snapshot. */
  public static long latestVersion(String tablePath) {
    return latestSnapshot(tablePath).getVersion();
  }

  /** The version of the latest {@code txn} action of {@code appId}, empty when there is none. */
  public static Optional<Long> txnVersion(String tablePath, String appId) {
    return latestSnapshot(tablePath).getLatestTransactionVersion(ENGINE, appId);
  }

  /** The protocol of the latest snapshot as Kernel reconciles it. */
  public static KernelProtocol protocol(String tablePath) {
    io.delta.kernel.internal.actions.Protocol protocol = latestSnapshot(tablePath).getProtocol();
    return new KernelProtocol(protocol.getMinReaderVersion(), protocol.getMinWriterVersion(),
        Set.copyOf(protocol.getReaderFeatures()), Set.copyOf(protocol.getWriterFeatures()));
  }

  /** The table properties ({@code metaData.configuration}) of the latest snapshot. */
  public static Map<String, String> properties(String tablePath) {
    return Map.copyOf(latestSnapshot(tablePath).getTableProperties());
  }

  /** The partition columns of the latest snapshot. */
  public static List<String> partitionColumns(String tablePath) {
    return List.copyOf(latestSnapshot(tablePath).getPartitionColumnNames());
  }

  /** The configuration of metadata domain {@code domain}, empty when the domain is absent or removed. */
  public static Optional<String> domainMetadata(String tablePath, String domain) {
    return latestSnapshot(tablePath).getDomainMetadata(domain);
  }

  /** A protocol as Kernel reports it (feature sets empty below reader 3 / writer 7). */
  public record KernelProtocol(int minReaderVersion, int minWriterVersion, Set<String> readerFeatures, Set<String> writerFeatures) {}

  /** The commit timestamp of the latest snapshot as Kernel determines it (its in-commit timestamp when the table has them). */
  public static long timestamp(String tablePath) {
    return latestSnapshot(tablePath).getTimestamp(ENGINE);
  }

  /** The schema of the latest snapshot in MergeSink's schema model. */
  public static StructType schema(String tablePath) {
    return toStructType(latestSnapshot(tablePath).getSchema());
  }

  static Snapshot latestSnapshot(String tablePath) {
    return TableManager.loadSnapshot(tablePath).build(ENGINE);
  }

  static Snapshot snapshotAt(String tablePath, long version) {
    return TableManager.loadSnapshot(tablePath).atVersion(version).build(ENGINE);
  }

  static Engine engine() {
    return ENGINE;
  }

  private static void readScanFile(io.delta.kernel.data.Row scanState, io.delta.kernel.data.Row scanFile,
      io.delta.kernel.types.StructType physicalReadSchema, List<Row> rows) throws IOException {
    FileStatus file = InternalScanFileUtils.getAddFileStatus(scanFile);
    CloseableIterator<ColumnarBatch> physicalData = ENGINE.getParquetHandler()
        .readParquetFiles(Utils.singletonCloseableIterator(file), physicalReadSchema, Optional.empty())
        .map(FileReadResult::getData);
    try (CloseableIterator<FilteredColumnarBatch> logicalData =
        Scan.transformPhysicalData(ENGINE, scanState, scanFile, physicalData)) {
      while (logicalData.hasNext()) {
        addSelectedRows(logicalData.next(), rows);
      }
    }
  }

  private static void addSelectedRows(FilteredColumnarBatch filtered, List<Row> rows) {
    ColumnarBatch batch = filtered.getData();
    Optional<ColumnVector> selection = filtered.getSelectionVector();
    int columns = batch.getSchema().length();
    for (int rowId = 0; rowId < batch.getSize(); rowId++) {
      if (selection.isPresent() && (selection.get().isNullAt(rowId) || !selection.get().getBoolean(rowId))) {
        continue;
      }
      Object[] values = new Object[columns];
      for (int column = 0; column < columns; column++) {
        values[column] = value(batch.getColumnVector(column), rowId);
      }
      rows.add(Row.of(values));
    }
  }

  /** The value at {@code rowId} of a Kernel vector, as MergeSink's in-memory value. */
  static Object value(ColumnVector vector, int rowId) {
    if (vector.isNullAt(rowId)) {
      return null;
    }
    io.delta.kernel.types.DataType type = vector.getDataType();
    if (type instanceof BooleanType) {
      return vector.getBoolean(rowId);
    } else if (type instanceof ByteType) {
      return vector.getByte(rowId);
    } else if (type instanceof ShortType) {
      return vector.getShort(rowId);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return vector.getInt(rowId);
    } else if (type instanceof LongType || type instanceof TimestampType || type instanceof TimestampNTZType) {
      return vector.getLong(rowId);
    } else if (type instanceof FloatType) {
      return vector.getFloat(rowId);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(rowId);
    } else if (type instanceof StringType) {
      return vector.getString(rowId);
    } else if (type instanceof BinaryType) {
      return vector.getBinary(rowId);
    } else if (type instanceof io.delta.kernel.types.DecimalType decimal) {
      return vector.getDecimal(rowId).setScale(decimal.getScale());
    } else if (type instanceof io.delta.kernel.types.ArrayType) {
      ArrayValue array = vector.getArray(rowId);
      List<Object> elements = new ArrayList<>(array.getSize());
      for (int i = 0; i < array.getSize(); i++) {
        elements.add(value(array.getElements(), i));
      }
      return elements;
    } else if (type instanceof io.delta.kernel.types.MapType) {
      MapValue map = vector.getMap(rowId);
      Map<Object, Object> entries = new LinkedHashMap<>();
      for (int i = 0; i < map.getSize(); i++) {
        entries.put(value(map.getKeys(), i), value(map.getValues(), i));
      }
      return entries;
    } else if (type instanceof io.delta.kernel.types.StructType struct) {
      Object[] fields = new Object[struct.length()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = value(vector.getChild(i), rowId);
      }
      return Row.of(fields);
    }
    throw new IllegalArgumentException("no MergeSink value for Kernel type " + type);
  }

  private static StructType toStructType(io.delta.kernel.types.StructType struct) {
    List<StructField> fields = new ArrayList<>(struct.length());
    for (io.delta.kernel.types.StructField field : struct.fields()) {
      fields.add(new StructField(field.getName(), toDataType(field.getDataType()), field.isNullable(),
          toMap(field.getMetadata())));
    }
    return new StructType(fields);
  }

  private static DataType toDataType(io.delta.kernel.types.DataType type) {
    if (type instanceof io.delta.kernel.types.DecimalType decimal) {
      return new DecimalType(decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof io.delta.kernel.types.ArrayType array) {
      return new ArrayType(toDataType(array.getElementType()), array.containsNull());
    } else if (type instanceof io.delta.kernel.types.MapType map) {
      return new MapType(toDataType(map.getKeyType()), toDataType(map.getValueType()), map.getValueField().isNullable());
    } else if (type instanceof io.delta.kernel.types.StructType struct) {
      return toStructType(struct);
    }
    PrimitiveType primitive = PrimitiveType.fromDeltaName(primitiveName(type));
    if (primitive == null) {
      throw new IllegalArgumentException("no MergeSink type for Kernel type " + type);
    }
    return primitive;
  }

  /** Kernel's primitive types print as their Delta names, except for parameters such as collations. */
  private static String primitiveName(io.delta.kernel.types.DataType type) {
    return type instanceof StringType ? PrimitiveType.STRING.deltaName() : type.toString();
  }

  private static Map<String, Object> toMap(FieldMetadata metadata) {
    Map<String, Object> map = new LinkedHashMap<>();
    metadata.getEntries().forEach((key, value) -> map.put(key, toJsonValue(value)));
    return map;
  }

  private static Object toJsonValue(Object value) {
    if (value instanceof FieldMetadata nested) {
      return toMap(nested);
    } else if (value instanceof Object[] array) {
      return Arrays.stream(array).map(KernelTables::toJsonValue).toList();
    }
    return value;
  }
}
