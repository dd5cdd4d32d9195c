package io.mergesink.core.log;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a commit file (PROTOCOL.md, "Delta Log Entries"): one action per line, each a
 * JSON object with a single key naming the action ({@code {"add":{...}}}), UTF-8, lines ended by
 * {@code \n}. Null fields are omitted when writing.
 */
public final class LogCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final byte NEWLINE = '\n';
  private static final String UNNAMED = "<commit>";

  private LogCodec() {}

  /** The commit file content for {@code actions}, in the given order. */
  public static byte[] serialize(List<? extends Action> actions) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      for (Action action : actions) {
        try (JsonGenerator gen = MAPPER.getFactory().createGenerator(out)) {
          gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
          new ActionJsonWriter(gen, MAPPER).write(action);
        }
        out.write(NEWLINE);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize actions " + actions, e);
    }
    return out.toByteArray();
  }

  /** One action as a single JSON line without the newline (for messages and tests). */
  public static String toJson(Action action) {
    String line = new String(serialize(List.of(action)), StandardCharsets.UTF_8);
    return line.substring(0, line.length() - 1);
  }

  /** {@link #parse(byte[], String)} without a file name for messages. */
  public static List<Action> parse(byte[] commitFileContent) {
    return parse(commitFileContent, UNNAMED);
  }

  /**
   * The actions of a commit file (or JSON V2 checkpoint) in file order. Blank lines and actions
   * MergeSink does not model ({@code cdc}, ...) are skipped.
   *
   * @param fileName the file's name or path, used in error messages
   * @throws LogFormatException when a line is not a JSON object or an action lacks a required field;
   *     the message names the file and the 1-based line
   */
  public static List<Action> parse(byte[] commitFileContent, String fileName) {
    String text = new String(commitFileContent, StandardCharsets.UTF_8);
    List<Action> actions = new ArrayList<>();
    int lineNumber = 0;
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      lineNumber++;
      String line = text.substring(start, end).strip();
      start = end + 1;
      if (!line.isEmpty()) {
        parseLine(line, fileName + ":" + lineNumber, actions);
      }
    }
    return actions;
  }

  private static void parseLine(String line, String where, List<Action> actions) {
    JsonNode node;
    try {
      node = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new LogFormatException("malformed JSON in " + where + ": " + e.getOriginalMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw new LogFormatException("expected a JSON object with one action in " + where + ", found " + line);
    }
    ActionJsonReader reader = new ActionJsonReader(MAPPER, where);
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      Action action = reader.read(field.getKey(), field.getValue());
      if (action != null) {
        actions.add(action);
      }
    }
  }
}
