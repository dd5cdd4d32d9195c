package io.mergesink.streams;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;

/**
 * The records of one partition that {@link HeldKeyChanges} holds, as bytes for its changelogged
 * store: offset, timestamp, key and value as Connect JSON with their schemas (the Connect data the
 * engine reads, so a record read back decodes as it would have), and the raw headers.
 */
final class HeldRecords {
  private static final int FORMAT = 1;

  /** A held record: its input offset, its timestamp, its key and value as Connect data, its headers. */
  record Held(long offset, long timestamp, SchemaAndValue key, SchemaAndValue value, Headers headers) {}

  private final JsonConverter keys = converter(true);
  private final JsonConverter values = converter(false);

  byte[] encode(String topic, List<Held> records) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeInt(records.size());
      for (Held record : records) {
        out.writeLong(record.offset());
        out.writeLong(record.timestamp());
        writeBytes(out, keys.fromConnectData(topic, record.key().schema(), record.key().value()));
        writeBytes(out, values.fromConnectData(topic, record.value().schema(), record.value().value()));
        Header[] headers = record.headers().toArray();
        out.writeInt(headers.length);
        for (Header header : headers) {
          out.writeUTF(header.key());
          writeBytes(out, header.value());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  List<Held> decode(String topic, byte[] encoded) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      int format = in.readByte();
      if (format != FORMAT) {
        throw new IllegalStateException("held records of " + topic + " in format " + format + ", expected " + FORMAT);
      }
      int count = in.readInt();
      List<Held> records = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        long offset = in.readLong();
        long timestamp = in.readLong();
        SchemaAndValue key = keys.toConnectData(topic, readBytes(in));
        SchemaAndValue value = values.toConnectData(topic, readBytes(in));
        Headers headers = new RecordHeaders();
        for (int h = in.readInt(); h > 0; h--) {
          headers.add(in.readUTF(), readBytes(in));
        }
        records.add(new Held(offset, timestamp, key, value, headers));
      }
      return records;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonConverter converter(boolean isKey) {
    JsonConverter converter = new JsonConverter();
    // a null field must come back null, not as its schema's default
    converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, true, JsonConverterConfig.REPLACE_NULL_WITH_DEFAULT_CONFIG,
        false), isKey);
    return converter;
  }

  private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    if (bytes == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    return length < 0 ? null : in.readNBytes(length);
  }
}
