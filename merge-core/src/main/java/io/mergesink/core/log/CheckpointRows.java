package io.mergesink.core.log;

import static io.mergesink.core.log.CheckpointSchema.LIST_ELEMENT;
import static io.mergesink.core.log.CheckpointSchema.LIST_ENTRY;
import static io.mergesink.core.log.CheckpointSchema.MAP_ENTRY;
import static io.mergesink.core.log.CheckpointSchema.MAP_KEY;
import static io.mergesink.core.log.CheckpointSchema.MAP_VALUE;

import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import java.util.Collection;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.schema.MessageType;

/** Turns an action into a checkpoint row: the action's column set, every other column null. */
final class CheckpointRows {
  /** A checkpoint changes no data: Spark writes {@code dataChange=false} for its adds and removes. */
  private static final boolean CHECKPOINT_DATA_CHANGE = false;

  private final SimpleGroupFactory factory;

  /** @param schema {@link CheckpointSchema#SCHEMA} or {@link CheckpointSchema#V2_SCHEMA} */
  CheckpointRows(MessageType schema) {
    this.factory = new SimpleGroupFactory(schema);
  }

  Group toRow(Action action) {
    Group row = factory.newGroup();
    if (action instanceof Protocol p) {
      Group g = row.addGroup(ActionNames.PROTOCOL);
      g.append("minReaderVersion", p.minReaderVersion());
      g.append("minWriterVersion", p.minWriterVersion());
      list(g, "readerFeatures", p.readerFeatures());
      list(g, "writerFeatures", p.writerFeatures());
    } else if (action instanceof Metadata m) {
      metadata(row.addGroup(ActionNames.METADATA), m);
    } else if (action instanceof AddFile a) {
      add(row.addGroup(ActionNames.ADD), a);
    } else if (action instanceof RemoveFile r) {
      remove(row.addGroup(ActionNames.REMOVE), r);
    } else if (action instanceof SetTransaction t) {
      Group g = row.addGroup(ActionNames.TXN);
      g.append("appId", t.appId());
      g.append("version", t.version());
      optLong(g, "lastUpdated", t.lastUpdated());
    } else if (action instanceof DomainMetadata d) {
      Group g = row.addGroup(ActionNames.DOMAIN_METADATA);
      g.append("domain", d.domain());
      g.append("configuration", d.configuration());
      g.append("removed", d.removed());
    } else if (action instanceof CheckpointMetadata c) {
      Group g = row.addGroup(ActionNames.CHECKPOINT_METADATA);
      g.append("version", c.version());
      map(g, "tags", c.tags());
    } else if (action instanceof Sidecar s) {
      Group g = row.addGroup(ActionNames.SIDECAR);
      g.append("path", s.path());
      g.append("sizeInBytes", s.sizeInBytes());
      g.append("modificationTime", s.modificationTime());
      map(g, "tags", s.tags());
    } else {
      throw new IllegalArgumentException("a checkpoint holds no " + action.getClass().getSimpleName() + " actions");
    }
    return row;
  }

  private static void metadata(Group g, Metadata m) {
    g.append("id", m.id());
    optString(g, "name", m.name());
    optString(g, "description", m.description());
    Group format = g.addGroup("format");
    format.append("provider", m.provider());
    map(format, "options", m.formatOptions());
    g.append("schemaString", m.schemaString());
    list(g, "partitionColumns", m.partitionColumns());
    map(g, "configuration", m.configuration());
    optLong(g, "createdTime", m.createdTime());
  }

  private static void add(Group g, AddFile a) {
    g.append("path", a.path());
    map(g, "partitionValues", a.partitionValues());
    g.append("size", a.size());
    g.append("modificationTime", a.modificationTime());
    g.append("dataChange", CHECKPOINT_DATA_CHANGE);
    map(g, "tags", a.tags());
    deletionVector(g, a.deletionVector());
    optLong(g, "baseRowId", a.baseRowId());
    optLong(g, "defaultRowCommitVersion", a.defaultRowCommitVersion());
    optString(g, "clusteringProvider", a.clusteringProvider());
    optString(g, "stats", a.stats());
  }

  private static void remove(Group g, RemoveFile r) {
    g.append("path", r.path());
    optLong(g, "deletionTimestamp", r.deletionTimestamp());
    g.append("dataChange", CHECKPOINT_DATA_CHANGE);
    g.append("extendedFileMetadata", r.extendedFileMetadata());
    map(g, "partitionValues", r.partitionValues());
    optLong(g, "size", r.size());
    deletionVector(g, r.deletionVector());
    optLong(g, "baseRowId", r.baseRowId());
    optLong(g, "defaultRowCommitVersion", r.defaultRowCommitVersion());
  }

  private static void deletionVector(Group parent, DeletionVectorDescriptor dv) {
    if (dv == null) {
      return;
    }
    Group g = parent.addGroup("deletionVector");
    g.append("storageType", dv.storageType());
    g.append("pathOrInlineDv", dv.pathOrInlineDv());
    if (dv.offset() != null) {
      g.append("offset", dv.offset());
    }
    g.append("sizeInBytes", dv.sizeInBytes());
    g.append("cardinality", dv.cardinality());
  }

  private static void map(Group parent, String field, Map<String, String> map) {
    if (map == null) {
      return;
    }
    Group g = parent.addGroup(field);
    for (Map.Entry<String, String> e : map.entrySet()) {
      Group entry = g.addGroup(MAP_ENTRY);
      entry.append(MAP_KEY, e.getKey());
      if (e.getValue() != null) {
        entry.append(MAP_VALUE, e.getValue());
      }
    }
  }

  private static void list(Group parent, String field, Collection<String> values) {
    if (values == null) {
      return;
    }
    Group g = parent.addGroup(field);
    for (String value : values) {
      Group entry = g.addGroup(LIST_ENTRY);
      if (value != null) {
        entry.append(LIST_ELEMENT, value);
      }
    }
  }

  private static void optString(Group g, String field, String value) {
    if (value != null) {
      g.append(field, value);
    }
  }

  private static void optLong(Group g, String field, Long value) {
    if (value != null) {
      g.append(field, value);
    }
  }
}
