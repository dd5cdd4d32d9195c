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
 * Reads checkpoints (PROTOCOL.md, "Checkpoints"): classic Parquet ones, single-file or multi-part,
 * as written by Spark/Delta and by {@link CheckpointWriter}, and V2 ones ("V2 Spec": UUID-named
 * JSON or Parquet, or classic-named), whose {@code add} and {@code remove} actions may live in
 * sidecar files under {@code _delta_log/_sidecars/}. Columns this class does not know ({@code cdc},
 * {@code add.stats_parsed}, ...) are ignored.
 */
public final class CheckpointReader {
  private static final String JSON_SUFFIX = ".json";

  private CheckpointReader() {}

  /**
   * The table state of a checkpoint: the actions of its files in order and row order, then those
   * of the sidecars it names, in the order it names them. The V2 structure itself ({@code sidecar},
   * {@code checkpointMetadata}) is not part of the result.
   *
   * @param root the table root, where sidecars are found
   * @param checkpointFiles the checkpoint's files, in part order
   * @throws IOException when a file or sidecar cannot be read (a missing sidecar too)
   * @throws LogFormatException when a row misses a required field, a V2 checkpoint names another
   *     version than its file name, or a sidecar holds other actions than add and remove; the
   *     message names file and row
   */
  public static List<Action> read(Storage storage, String root, List<String> checkpointFiles) throws IOException {
    List<Action> actions = new ArrayList<>();
    List<Sidecar> sidecars = new ArrayList<>();
    for (String path : checkpointFiles) {
      List<Action> fileActions = path.endsWith(JSON_SUFFIX) ? LogCodec.parse(storage.readAll(path), path) : readParquet(storage, path);
      for (Action action : fileActions) {
        if (action instanceof Sidecar sidecar) {
          sidecars.add(sidecar);
        } else if (action instanceof CheckpointMetadata metadata) {
          checkVersion(path, metadata);
        } else {
          actions.add(action);
        }
      }
    }
    for (Sidecar sidecar : sidecars) {
      String path = LogPaths.sidecarFile(root, sidecar.path());
      for (Action action : readParquet(storage, path)) {
        if (!(action instanceof AddFile) && !(action instanceof RemoveFile)) {
          throw new LogFormatException("sidecar " + path + " holds a " + action.getClass().getSimpleName()
              + " action; sidecars hold only add and remove actions");
        }
        actions.add(action);
      }
    }
    return actions;
  }

  private static void checkVersion(String path, CheckpointMetadata metadata) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    java.util.Optional<LogPaths.CheckpointName> parsed = LogPaths.checkpointName(name);
    if (parsed.isPresent() && parsed.get().version() != metadata.version()) {
      throw new LogFormatException("checkpoint " + path + " says it is of version " + metadata.version()
          + " (checkpointMetadata) but its name says " + parsed.get().version());
    }
  }

  private static List<Action> readParquet(Storage storage, String path) throws IOException {
    List<Action> actions = new ArrayList<>();
    readPart(storage.parquetInput(path), path, actions);
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
          optLong(g, "defaultRowCommitVersion"),
          string(g, "clusteringProvider"));
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
          string(g, "stats"),
          optLong(g, "baseRowId"),
          optLong(g, "defaultRowCommitVersion"));
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
    if ((g = group(row, ActionNames.SIDECAR)) != null) {
      return new Sidecar(
          required(string(g, "path"), "sidecar.path", where),
          required(optLong(g, "sizeInBytes"), "sidecar.sizeInBytes", where),
          required(optLong(g, "modificationTime"), "sidecar.modificationTime", where),
          stringMap(g, "tags"));
    }
    if ((g = group(row, ActionNames.CHECKPOINT_METADATA)) != null) {
      return new CheckpointMetadata(required(optLong(g, "version"), "checkpointMetadata.version", where), stringMap(g, "tags"));
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
