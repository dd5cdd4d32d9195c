package io.mergesink.core.log;

import io.mergesink.core.types.SchemaJson;
import io.mergesink.core.types.StructType;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code metaData} action (PROTOCOL.md, "Change Metadata").
 *
 * @param provider the data file format, {@code parquet}
 * @param schemaString the table schema in Delta's schema JSON ({@link SchemaJson})
 * @param createdTime milliseconds since the epoch, or null
 */
public record Metadata(
    String id,
    String name,
    String description,
    String provider,
    Map<String, String> formatOptions,
    String schemaString,
    List<String> partitionColumns,
    Map<String, String> configuration,
    Long createdTime) implements Action {

  public static final String PARQUET = "parquet";
  public static final String ENABLE_DELETION_VECTORS = "delta.enableDeletionVectors";
  public static final String CHECKPOINT_INTERVAL = "delta.checkpointInterval";
  public static final String DELETED_FILE_RETENTION = "delta.deletedFileRetentionDuration";
  public static final String APPEND_ONLY = "delta.appendOnly";
  public static final String ENABLE_CHANGE_DATA_FEED = "delta.enableChangeDataFeed";

  public Metadata {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(schemaString, "schemaString");
    provider = provider == null ? PARQUET : provider;
    formatOptions = Copies.mapOrEmpty(formatOptions);
    partitionColumns = Copies.listOrEmpty(partitionColumns);
    configuration = Copies.mapOrEmpty(configuration);
  }

  /**
   * The parsed schema.
   *
   * @throws IllegalArgumentException when {@code schemaString} is not a valid Delta schema
   */
  public StructType schema() {
    return SchemaJson.fromJson(schemaString);
  }

  /** Whether the table refuses changes and removals of data ({@value #APPEND_ONLY}{@code =true}, PROTOCOL.md "Append-only Tables"). */
  public boolean appendOnly() {
    return Boolean.parseBoolean(configuration.getOrDefault(APPEND_ONLY, "false").trim());
  }

  /** A copy with another {@code configuration}. */
  public Metadata withConfiguration(Map<String, String> newConfiguration) {
    return new Metadata(id, name, description, provider, formatOptions, schemaString, partitionColumns, newConfiguration, createdTime);
  }

  /** A copy with another schema. */
  public Metadata withSchema(StructType schema) {
    return new Metadata(id, name, description, provider, formatOptions, SchemaJson.toJson(schema),
        partitionColumns, configuration, createdTime);
  }
}
