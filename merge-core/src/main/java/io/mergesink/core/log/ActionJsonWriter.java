package io.mergesink.core.log;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.deletionvectors.DeletionVectorDescriptor;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;

/** Writes one action as the single-key JSON object of a commit line; null fields are omitted. */
final class ActionJsonWriter {
  private final JsonGenerator gen;
  private final ObjectMapper mapper;

  ActionJsonWriter(JsonGenerator gen, ObjectMapper mapper) {
    this.gen = gen;
    this.mapper = mapper;
  }

  void write(Action action) throws IOException {
    gen.writeStartObject();
    if (action instanceof Protocol p) {
      writeProtocol(p);
    } else if (action instanceof Metadata m) {
      writeMetadata(m);
    } else if (action instanceof AddFile a) {
      writeAdd(a);
    } else if (action instanceof RemoveFile r) {
      writeRemove(r);
    } else if (action instanceof AddCDCFile c) {
      writeCdc(c);
    } else if (action instanceof SetTransaction t) {
      writeTxn(t);
    } else if (action instanceof DomainMetadata d) {
      writeDomainMetadata(d);
    } else if (action instanceof CommitInfo c) {
      gen.writeFieldName(ActionNames.COMMIT_INFO);
      mapper.writeValue(gen, c.values());
    } else if (action instanceof Sidecar s) {
      gen.writeObjectFieldStart(ActionNames.SIDECAR);
      gen.writeStringField("path", s.path());
      gen.writeNumberField("sizeInBytes", s.sizeInBytes());
      gen.writeNumberField("modificationTime", s.modificationTime());
      writeMap("tags", s.tags());
      gen.writeEndObject();
    } else if (action instanceof CheckpointMetadata c) {
      gen.writeObjectFieldStart(ActionNames.CHECKPOINT_METADATA);
      gen.writeNumberField("version", c.version());
      writeMap("tags", c.tags());
      gen.writeEndObject();
    } else {
      throw new IllegalArgumentException("unknown action type " + action.getClass().getName());
    }
    gen.writeEndObject();
  }

  private void writeProtocol(Protocol p) throws IOException {
    gen.writeObjectFieldStart(ActionNames.PROTOCOL);
    gen.writeNumberField("minReaderVersion", p.minReaderVersion());
    gen.writeNumberField("minWriterVersion", p.minWriterVersion());
    writeStrings("readerFeatures", p.readerFeatures());
    writeStrings("writerFeatures", p.writerFeatures());
    gen.writeEndObject();
  }

  private void writeMetadata(Metadata m) throws IOException {
    gen.writeObjectFieldStart(ActionNames.METADATA);
    gen.writeStringField("id", m.id());
    writeString("name", m.name());
    writeString("description", m.description());
    gen.writeObjectFieldStart("format");
    gen.writeStringField("provider", m.provider());
    writeMap("options", m.formatOptions());
    gen.writeEndObject();
    gen.writeStringField("schemaString", m.schemaString());
    writeStrings("partitionColumns", m.partitionColumns());
    writeMap("configuration", m.configuration());
    writeLong("createdTime", m.createdTime());
    gen.writeEndObject();
  }

  private void writeAdd(AddFile a) throws IOException {
    gen.writeObjectFieldStart(ActionNames.ADD);
    gen.writeStringField("path", a.path());
    writeMap("partitionValues", a.partitionValues());
    gen.writeNumberField("size", a.size());
    gen.writeNumberField("modificationTime", a.modificationTime());
    gen.writeBooleanField("dataChange", a.dataChange());
    writeString("stats", a.stats());
    writeMap("tags", a.tags());
    writeDeletionVector(a.deletionVector());
    writeLong("baseRowId", a.baseRowId());
    writeLong("defaultRowCommitVersion", a.defaultRowCommitVersion());
    writeString("clusteringProvider", a.clusteringProvider());
    gen.writeEndObject();
  }

  private void writeRemove(RemoveFile r) throws IOException {
    gen.writeObjectFieldStart(ActionNames.REMOVE);
    gen.writeStringField("path", r.path());
    writeLong("deletionTimestamp", r.deletionTimestamp());
    gen.writeBooleanField("dataChange", r.dataChange());
    gen.writeBooleanField("extendedFileMetadata", r.extendedFileMetadata());
    writeMap("partitionValues", r.partitionValues());
    writeLong("size", r.size());
    writeMap("tags", r.tags());
    writeDeletionVector(r.deletionVector());
    writeString("stats", r.stats());
    writeLong("baseRowId", r.baseRowId());
    writeLong("defaultRowCommitVersion", r.defaultRowCommitVersion());
    gen.writeEndObject();
  }

  private void writeCdc(AddCDCFile c) throws IOException {
    gen.writeObjectFieldStart(ActionNames.CDC);
    gen.writeStringField("path", c.path());
    writeMap("partitionValues", c.partitionValues());
    gen.writeNumberField("size", c.size());
    gen.writeBooleanField("dataChange", false);
    writeMap("tags", c.tags());
    gen.writeEndObject();
  }

  private void writeTxn(SetTransaction t) throws IOException {
    gen.writeObjectFieldStart(ActionNames.TXN);
    gen.writeStringField("appId", t.appId());
    gen.writeNumberField("version", t.version());
    writeLong("lastUpdated", t.lastUpdated());
    gen.writeEndObject();
  }

  private void writeDomainMetadata(DomainMetadata d) throws IOException {
    gen.writeObjectFieldStart(ActionNames.DOMAIN_METADATA);
    gen.writeStringField("domain", d.domain());
    gen.writeStringField("configuration", d.configuration());
    gen.writeBooleanField("removed", d.removed());
    gen.writeEndObject();
  }

  private void writeDeletionVector(DeletionVectorDescriptor dv) throws IOException {
    if (dv == null) {
      return;
    }
    gen.writeObjectFieldStart("deletionVector");
    gen.writeStringField("storageType", dv.storageType());
    gen.writeStringField("pathOrInlineDv", dv.pathOrInlineDv());
    if (dv.offset() != null) {
      gen.writeNumberField("offset", dv.offset());
    }
    gen.writeNumberField("sizeInBytes", dv.sizeInBytes());
    gen.writeNumberField("cardinality", dv.cardinality());
    gen.writeEndObject();
  }

  private void writeString(String field, String value) throws IOException {
    if (value != null) {
      gen.writeStringField(field, value);
    }
  }

  private void writeLong(String field, Long value) throws IOException {
    if (value != null) {
      gen.writeNumberField(field, value);
    }
  }

  private void writeStrings(String field, Collection<String> values) throws IOException {
    if (values == null) {
      return;
    }
    gen.writeArrayFieldStart(field);
    for (String value : values) {
      gen.writeString(value);
    }
    gen.writeEndArray();
  }

  private void writeMap(String field, Map<String, String> map) throws IOException {
    if (map == null) {
      return;
    }
    gen.writeObjectFieldStart(field);
    for (Map.Entry<String, String> e : map.entrySet()) {
      gen.writeStringField(e.getKey(), e.getValue());
    }
    gen.writeEndObject();
  }
}
