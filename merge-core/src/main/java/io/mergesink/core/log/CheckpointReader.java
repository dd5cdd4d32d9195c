package io.mergesink.core.log;

import static io.mergesink.core.log.GroupValues.group;
import static io.mergesink.core.log.GroupValues.optBoolean;
import static io.mergesink.core.log.GroupValues.optLong;
import static io.mergesink.core.log.GroupValues.string;
import static io.mergesink.core.log.GroupValues.stringMap;
import static io.mergesink.core.log.GroupValues.stringList;
import static io.mergesink.core.log.GroupValues.stringSet;

import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.InputFile;

/**
 * Reads classic Parquet checkpoints (PROTOCOL.md, "Checkpoints"), single-file or multi-part, as
 * written by Spark/Delta and by {@link CheckpointWriter}. Columns this class does not know
 * ({@code cdc}, {@code add.stats_parsed}, {@code checkpointMetadata}, ...) are ignored.
 */
public final class CheckpointReader {
  private CheckpointReader() {}

  /**
   * The actions of all parts, in part order and row order within a part.
   *
   * @throws IOException when a part cannot be read
   * @throws LogFormatException when a row misses a required field; the message names file and row
   */
  public static List<Action> read(Storage storage, List<String> checkpointPartPaths) throws IOException {
    List<Action> actions = new ArrayList<>();
    for (String path : checkpointPartPaths) {
      readPart(storage.parquetInput(path), path, actions);
    }
    return actions;
  }

  private static void readPart(InputFile input, String path, List<Action> actions) throws IOException {
    // A plain configuration: the Hadoop one the builder makes otherwise loads core-default.xml on
    // every call, most of the time of opening a table.
    ParquetReader.Builder<Group> builder = new ParquetReader.Builder<>(input, new PlainParquetConfiguration()) {
      @Override
      protected ReadSupport<Group> getReadSupport() {
        return new GroupReadSupport();
      }
    };
    try (ParquetReader<Group> reader = builder.build()) {
      long row = 0;
      for (Group g = reader.read(); g != null; g = reader.read()) {
        Action action = toAction(g, path + " row " + row);
        if (action != null) {
          actions.add(action);
        }
        row++;
      }
    }
  }

  private static Action toAction(Group row, String where) {
    Group g;
    if ((g = group(row, ActionNames.ADD)) != null) {
      return new AddFile(
          required(string(g, "path"), "add.path", where),
          stringMap(g, "partitionValues"),
          required(optLong(g, "size"), "add.size", where),
          required(optLong(g, "modificationTime"), "add.modificationTime", where),
          orTrue(optBoolean(g, "dataChange")),
          string(g, "stats"),
          stringMap(g, "tags"),
          deletionVector(group(g, "deletionVector"), where),
          optLong(g, "baseRowId"),
          optLong(g, "defaultRowCommitVersion"));
    }
    if ((g = group(row, ActionNames.REMOVE)) != null) {
      Boolean extended = optBoolean(g, "extendedFileMetadata");
      return new RemoveFile(
          required(string(g, "path"), "remove.path", where),
          optLong(g, "deletionTimestamp"),
          orTrue(optBoolean(g, "dataChange")),
          extended != null && extended,
          stringMap(g, "partitionValues"),
          optLong(g, "size"),
          stringMap(g, "tags"),
          deletionVector(group(g, "deletionVector"), where),
          string(g, "stats"));
    }
    if ((g = group(row, ActionNames.TXN)) != null) {
      return new SetTransaction(
          required(string(g, "appId"), "txn.appId", where),
          required(optLong(g, "version"), "txn.version", where),
          optLong(g, "lastUpdated"));
    }
    if ((g = group(row, ActionNames.METADATA)) != null) {
      Group format = group(g, "format");
      return new Metadata(
          required(string(g, "id"), "metaData.id", where),
          string(g, "name"),
          string(g, "description"),
          string(format, "provider"),
          stringMap(format, "options"),
          required(string(g, "schemaString"), "metaData.schemaString", where),
          stringList(g, "partitionColumns"),
          stringMap(g, "configuration"),
          optLong(g, "createdTime"));
    }
    if ((g = group(row, ActionNames.PROTOCOL)) != null) {
      return new Protocol(
          Math.toIntExact(required(optLong(g, "minReaderVersion"), "protocol.minReaderVersion", where)),
          Math.toIntExact(required(optLong(g, "minWriterVersion"), "protocol.minWriterVersion", where)),
          stringSet(g, "readerFeatures"),
          stringSet(g, "writerFeatures"));
    }
    if ((g = group(row, ActionNames.DOMAIN_METADATA)) != null) {
      Boolean removed = optBoolean(g, "removed");
      return new DomainMetadata(
          required(string(g, "domain"), "domainMetadata.domain", where),
          required(string(g, "configuration"), "domainMetadata.configuration", where),
          removed != null && removed);
    }
    return null;
  }

  private static DeletionVectorDescriptor deletionVector(Group g, String where) {
    if (g == null) {
      return null;
    }
    Long offset = optLong(g, "offset");
    return new DeletionVectorDescriptor(
        required(string(g, "storageType"), "deletionVector.storageType", where),
        required(string(g, "pathOrInlineDv"), "deletionVector.pathOrInlineDv", where),
        offset == null ? null : Math.toIntExact(offset),
        Math.toIntExact(required(optLong(g, "sizeInBytes"), "deletionVector.sizeInBytes", where)),
        required(optLong(g, "cardinality"), "deletionVector.cardinality", where));
  }

  private static boolean orTrue(Boolean value) {
    return value == null || value;
  }

  private static <T> T required(T value, String field, String where) {
    if (value == null) {
      throw new LogFormatException("missing required field '" + field + "' in checkpoint " + where);
    }
    return value;
  }
}
