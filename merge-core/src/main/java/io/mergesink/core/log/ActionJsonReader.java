package io.mergesink.core.log;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the parsed JSON of one commit line into an {@link Action}. Every error names
 * {@code where} (file and line) and the missing or malformed field.
 */
final class ActionJsonReader {
  private static final TypeReference<Map<String, Object>> FREE_FORM = new TypeReference<>() {};

  private final ObjectMapper mapper;
  private final String where;

  ActionJsonReader(ObjectMapper mapper, String where) {
    this.mapper = mapper;
    this.where = where;
  }

  /** The action of the line, or null when its key names an action MergeSink does not model. */
  Action read(String key, JsonNode node) {
    return switch (key) {
      case ActionNames.PROTOCOL -> protocol(node);
      case ActionNames.METADATA -> metadata(node);
      case ActionNames.ADD -> add(node);
      case ActionNames.REMOVE -> remove(node);
      case ActionNames.CDC -> new AddCDCFile(text(node, "path", key), optStringMap(node.get("partitionValues")),
          longValue(node, "size", key), optStringMap(node.get("tags")));
      case ActionNames.TXN -> new SetTransaction(
          text(node, "appId", key), longValue(node, "version", key), optLong(node, "lastUpdated"));
      case ActionNames.DOMAIN_METADATA -> new DomainMetadata(
          text(node, "domain", key), text(node, "configuration", key), node.path("removed").asBoolean(false));
      case ActionNames.COMMIT_INFO -> new CommitInfo(mapper.convertValue(object(node, key), FREE_FORM));
      case ActionNames.SIDECAR -> new Sidecar(text(node, "path", key), longValue(node, "sizeInBytes", key),
          longValue(node, "modificationTime", key), optStringMap(node.get("tags")));
      case ActionNames.CHECKPOINT_METADATA -> new CheckpointMetadata(longValue(node, "version", key), optStringMap(node.get("tags")));
      default -> null;
    };
  }

  private Protocol protocol(JsonNode node) {
    String key = ActionNames.PROTOCOL;
    return new Protocol(
        (int) longValue(node, "minReaderVersion", key),
        (int) longValue(node, "minWriterVersion", key),
        optStringSet(node.get("readerFeatures")),
        optStringSet(node.get("writerFeatures")));
  }

  private Metadata metadata(JsonNode node) {
    String key = ActionNames.METADATA;
    JsonNode format = node.path("format");
    return new Metadata(
        text(node, "id", key),
        optText(node, "name"),
        optText(node, "description"),
        format.hasNonNull("provider") ? format.get("provider").asText() : null,
        optStringMap(format.get("options")),
        text(node, "schemaString", key),
        optStringList(node.get("partitionColumns")),
        optStringMap(node.get("configuration")),
        optLong(node, "createdTime"));
  }

  private AddFile add(JsonNode node) {
    String key = ActionNames.ADD;
    return new AddFile(
        text(node, "path", key),
        optStringMap(node.get("partitionValues")),
        longValue(node, "size", key),
        longValue(node, "modificationTime", key),
        node.path("dataChange").asBoolean(true),
        optText(node, "stats"),
        optStringMap(node.get("tags")),
        deletionVector(node.get("deletionVector")),
        optLong(node, "baseRowId"),
        optLong(node, "defaultRowCommitVersion"),
        optText(node, "clusteringProvider"));
  }

  private RemoveFile remove(JsonNode node) {
    String key = ActionNames.REMOVE;
    return new RemoveFile(
        text(node, "path", key),
        optLong(node, "deletionTimestamp"),
        node.path("dataChange").asBoolean(true),
        node.path("extendedFileMetadata").asBoolean(false),
        optStringMap(node.get("partitionValues")),
        optLong(node, "size"),
        optStringMap(node.get("tags")),
        deletionVector(node.get("deletionVector")),
        optText(node, "stats"),
        optLong(node, "baseRowId"),
        optLong(node, "defaultRowCommitVersion"));
  }

  private DeletionVectorDescriptor deletionVector(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    String key = "deletionVector";
    Long offset = optLong(node, "offset");
    return new DeletionVectorDescriptor(
        text(node, "storageType", key),
        text(node, "pathOrInlineDv", key),
        offset == null ? null : Math.toIntExact(offset),
        Math.toIntExact(longValue(node, "sizeInBytes", key)),
        longValue(node, "cardinality", key));
  }

  private JsonNode object(JsonNode node, String action) {
    if (!node.isObject()) {
      throw new LogFormatException("expected a JSON object for action '" + action + "' in " + where + ", found " + node);
    }
    return node;
  }

  private String text(JsonNode node, String field, String action) {
    JsonNode value = object(node, action).get(field);
    if (value == null || value.isNull()) {
      throw missing(field, action);
    }
    return value.asText();
  }

  private long longValue(JsonNode node, String field, String action) {
    JsonNode value = object(node, action).get(field);
    if (value == null || !value.canConvertToLong()) {
      throw value == null || value.isNull()
          ? missing(field, action)
          : new LogFormatException("expected an integer for '" + action + "." + field + "' in " + where + ", found " + value);
    }
    return value.asLong();
  }

  private LogFormatException missing(String field, String action) {
    return new LogFormatException("missing required field '" + action + "." + field + "' in " + where);
  }

  private static String optText(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Long optLong(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asLong();
  }

  private static Map<String, String> optStringMap(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    Map<String, String> map = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    return map;
  }

  private static List<String> optStringList(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    List<String> list = new ArrayList<>(node.size());
    node.forEach(e -> list.add(e.asText()));
    return list;
  }

  private static Set<String> optStringSet(JsonNode node) {
    List<String> list = optStringList(node);
    return list == null ? null : new LinkedHashSet<>(list);
  }
}
