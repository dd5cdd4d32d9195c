package io.mergesink.core.log;

import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * The Parquet schemas of checkpoints (PROTOCOL.md, "Checkpoint Schema"), the classic one exactly as Spark
 * 4.0 / Delta 4.0 writes it: one optional top-level group per action type, maps as
 * {@code MAP}/{@code key_value}, lists as 3-level {@code LIST}/{@code list}/{@code element}.
 * {@code add.stats} is the JSON string; no {@code stats_parsed}.
 */
final class CheckpointSchema {
  private static final String STRING_MAP = " (MAP) { repeated group key_value {"
      + " required binary key (STRING); optional binary value (STRING); } }\n";
  private static final String STRING_LIST = " (LIST) { repeated group list { optional binary element (STRING); } }\n";
  private static final String DELETION_VECTOR = "optional group deletionVector {\n"
      + "  optional binary storageType (STRING);\n"
      + "  optional binary pathOrInlineDv (STRING);\n"
      + "  optional int32 offset;\n"
      + "  optional int32 sizeInBytes;\n"
      + "  optional int64 cardinality;\n"
      + "  optional int64 maxRowIndex;\n"
      + "}\n";

  private static final String ACTIONS = ""
      + "optional group txn {\n"
      + "  optional binary appId (STRING);\n"
      + "  optional int64 version;\n"
      + "  optional int64 lastUpdated;\n"
      + "}\n"
      + "optional group add {\n"
      + "  optional binary path (STRING);\n"
      + "  optional group partitionValues" + STRING_MAP
      + "  optional int64 size;\n"
      + "  optional int64 modificationTime;\n"
      + "  optional boolean dataChange;\n"
      + "  optional group tags" + STRING_MAP
      + DELETION_VECTOR
      + "  optional int64 baseRowId;\n"
      + "  optional int64 defaultRowCommitVersion;\n"
      + "  optional binary clusteringProvider (STRING);\n"
      + "  optional binary stats (STRING);\n"
      + "}\n"
      + "optional group remove {\n"
      + "  optional binary path (STRING);\n"
      + "  optional int64 deletionTimestamp;\n"
      + "  optional boolean dataChange;\n"
      + "  optional boolean extendedFileMetadata;\n"
      + "  optional group partitionValues" + STRING_MAP
      + "  optional int64 size;\n"
      + DELETION_VECTOR
      + "  optional int64 baseRowId;\n"
      + "  optional int64 defaultRowCommitVersion;\n"
      + "}\n"
      + "optional group metaData {\n"
      + "  optional binary id (STRING);\n"
      + "  optional binary name (STRING);\n"
      + "  optional binary description (STRING);\n"
      + "  optional group format {\n"
      + "    optional binary provider (STRING);\n"
      + "    optional group options" + STRING_MAP
      + "  }\n"
      + "  optional binary schemaString (STRING);\n"
      + "  optional group partitionColumns" + STRING_LIST
      + "  optional group configuration" + STRING_MAP
      + "  optional int64 createdTime;\n"
      + "}\n"
      + "optional group protocol {\n"
      + "  optional int32 minReaderVersion;\n"
      + "  optional int32 minWriterVersion;\n"
      + "  optional group readerFeatures" + STRING_LIST
      + "  optional group writerFeatures" + STRING_LIST
      + "}\n"
      + "optional group domainMetadata {\n"
      + "  optional binary domain (STRING);\n"
      + "  optional binary configuration (STRING);\n"
      + "  optional boolean removed;\n"
      + "}\n";

  /** The schema of a classic (V1 spec) checkpoint. */
  static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message spark_schema {\n" + ACTIONS + "}");

  /**
   * The schema of a V2 spec checkpoint (PROTOCOL.md, "V2 Spec"): the V1 columns plus
   * {@code checkpointMetadata} and {@code sidecar}.
   */
  static final MessageType V2_SCHEMA = MessageTypeParser.parseMessageType("message spark_schema {\n" + ACTIONS
      + "optional group checkpointMetadata {\n"
      + "  optional int64 version;\n"
      + "  optional group tags" + STRING_MAP
      + "}\n"
      + "optional group sidecar {\n"
      + "  optional binary path (STRING);\n"
      + "  optional int64 sizeInBytes;\n"
      + "  optional int64 modificationTime;\n"
      + "  optional group tags" + STRING_MAP
      + "}\n"
      + "}");

  static final String MAP_ENTRY = "key_value";
  static final String MAP_KEY = "key";
  static final String MAP_VALUE = "value";
  static final String LIST_ENTRY = "list";
  static final String LIST_ELEMENT = "element";

  private CheckpointSchema() {}
}
