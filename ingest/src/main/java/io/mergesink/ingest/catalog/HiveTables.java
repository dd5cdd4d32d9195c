package io.mergesink.ingest.catalog;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DataType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;

/**
 * A Delta table as a Hive Metastore entry, in the shape Spark's Delta catalog gives it (Spark's
 * {@code HiveExternalCatalog} for a data source table): an {@code EXTERNAL_TABLE} with
 * {@code spark.sql.sources.provider=delta}, the location in the storage descriptor and in the serde's
 * {@code path}, the schema as Spark's JSON split in {@code spark.sql.sources.schema.part.N} and the
 * partition columns in {@code spark.sql.sources.schema.partCol.N}. Besides, the storage descriptor's
 * columns are the table's columns in Hive types (Spark writes a placeholder there), so that tools
 * that only read Hive columns show the schema too; no Hive partitions are registered (Delta
 * partitions live in the log).
 */
final class HiveTables {
  static final String PROVIDER = "spark.sql.sources.provider";
  static final String DELTA = "delta";
  static final String TABLE_TYPE = "EXTERNAL_TABLE";
  private static final String EXTERNAL = "EXTERNAL";
  private static final String SCHEMA_PREFIX = "spark.sql.sources.schema.";
  private static final String SCHEMA_PARTS = SCHEMA_PREFIX + "numParts";
  private static final String SCHEMA_PART = SCHEMA_PREFIX + "part.";
  private static final String PARTITION_COLUMNS = SCHEMA_PREFIX + "numPartCols";
  private static final String PARTITION_COLUMN = SCHEMA_PREFIX + "partCol.";
  /** Spark splits the schema JSON into table properties of at most this many characters. */
  private static final int SCHEMA_PART_LENGTH = 4000;
  private static final String PATH = "path";
  private static final String SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  private static final String INPUT_FORMAT = "org.apache.hadoop.mapred.SequenceFileInputFormat";
  private static final String OUTPUT_FORMAT = "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat";

  private HiveTables() {}

  /** A new entry of {@code table} in {@code database}. */
  static Table entry(String database, CatalogTable table) {
    Table entry = new Table();
    entry.setDbName(database);
    entry.setTableName(table.catalogName());
    entry.setTableType(TABLE_TYPE);
    entry.setParameters(new HashMap<>());
    StorageDescriptor descriptor = new StorageDescriptor();
    descriptor.setInputFormat(INPUT_FORMAT);
    descriptor.setOutputFormat(OUTPUT_FORMAT);
    descriptor.setSerdeInfo(new SerDeInfo(null, SERDE, new HashMap<>(Map.of("serialization.format", "1"))));
    entry.setSd(descriptor);
    entry.setPartitionKeys(new ArrayList<>());
    return updated(entry, table);
  }

  /** {@code existing} (a copy) with {@code table}'s location, schema and partitioning; other properties kept. */
  static Table updated(Table existing, CatalogTable table) {
    Table entry = existing.deepCopy();
    Map<String, String> parameters = new HashMap<>(entry.getParameters() == null ? Map.of() : entry.getParameters());
    parameters.keySet().removeIf(key -> key.startsWith(SCHEMA_PREFIX));
    parameters.putAll(properties(table));
    entry.setParameters(parameters);
    entry.getSd().setLocation(table.location());
    entry.getSd().setCols(columns(table.schema()));
    if (entry.getSd().getSerdeInfo() == null) {
      entry.getSd().setSerdeInfo(new SerDeInfo(null, SERDE, new HashMap<>()));
    }
    entry.getSd().getSerdeInfo().putToParameters(PATH, table.location());
    return entry;
  }

  /** Whether {@code existing} is an entry of a Delta table at {@code table}'s location. */
  static boolean isEntryOf(Table existing, CatalogTable table) {
    return existing.getParameters() != null && DELTA.equalsIgnoreCase(existing.getParameters().get(PROVIDER))
        && existing.getSd() != null && table.location().equals(existing.getSd().getLocation());
  }

  /** Whether {@code existing} has {@code table}'s schema and partitioning, as {@link #updated} writes them. */
  static boolean matches(Table existing, CatalogTable table) {
    Map<String, String> parameters = existing.getParameters();
    Map<String, String> expected = properties(table);
    return expected.entrySet().stream().allMatch(e -> e.getValue().equals(parameters.get(e.getKey())))
        && parameters.keySet().stream().filter(key -> key.startsWith(SCHEMA_PREFIX)).allMatch(expected::containsKey)
        && columns(table.schema()).equals(existing.getSd().getCols());
  }

  private static Map<String, String> properties(CatalogTable table) {
    Map<String, String> properties = new HashMap<>();
    properties.put(EXTERNAL, "TRUE");
    properties.put(PROVIDER, DELTA);
    String json = SchemaJson.toJson(table.schema());
    int parts = (json.length() + SCHEMA_PART_LENGTH - 1) / SCHEMA_PART_LENGTH;
    properties.put(SCHEMA_PARTS, Integer.toString(parts));
    for (int part = 0; part < parts; part++) {
      properties.put(SCHEMA_PART + part, json.substring(part * SCHEMA_PART_LENGTH,
          Math.min(json.length(), (part + 1) * SCHEMA_PART_LENGTH)));
    }
    if (!table.partitionColumns().isEmpty()) {
      properties.put(PARTITION_COLUMNS, Integer.toString(table.partitionColumns().size()));
      for (int i = 0; i < table.partitionColumns().size(); i++) {
        properties.put(PARTITION_COLUMN + i, table.partitionColumns().get(i));
      }
    }
    return properties;
  }

  private static List<FieldSchema> columns(StructType schema) {
    return schema.fields().stream().map(field -> new FieldSchema(field.name(), hiveType(field.type()), null)).toList();
  }

  /** The Hive type name of {@code type} (Hive's {@code timestamp} has no time zone: both timestamps map to it). */
  static String hiveType(DataType type) {
    if (type instanceof PrimitiveType primitive) {
      return switch (primitive) {
        case BOOLEAN -> "boolean";
        case BYTE -> "tinyint";
        case SHORT -> "smallint";
        case INTEGER -> "int";
        case LONG -> "bigint";
        case FLOAT -> "float";
        case DOUBLE -> "double";
        case STRING -> "string";
        case BINARY -> "binary";
        case DATE -> "date";
        case TIMESTAMP, TIMESTAMP_NTZ -> "timestamp";
      };
    }
    if (type instanceof DecimalType decimal) {
      return "decimal(" + decimal.precision() + "," + decimal.scale() + ")";
    }
    if (type instanceof ArrayType array) {
      return "array<" + hiveType(array.elementType()) + ">";
    }
    if (type instanceof MapType map) {
      return "map<" + hiveType(map.keyType()) + "," + hiveType(map.valueType()) + ">";
    }
    if (type instanceof StructType struct) {
      return struct.fields().stream().map(HiveTables::structField).collect(Collectors.joining(",", "struct<", ">"));
    }
    throw new IllegalArgumentException("no Hive type for " + type);
  }

  private static String structField(StructField field) {
    return field.name() + ":" + hiveType(field.type());
  }
}
