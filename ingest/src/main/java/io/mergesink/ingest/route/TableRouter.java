package io.mergesink.ingest.route;

import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.SourceInfo;
import io.mergesink.ingest.route.TableNameTemplate.Literal;
import io.mergesink.ingest.route.TableNameTemplate.Part;
import io.mergesink.ingest.route.TableNameTemplate.Placeholder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Maps a change event to the path of its table relative to {@code table.root}, by substituting
 * {@code table.name.format}'s placeholders with sanitised values (see {@link #sanitize}).
 *
 * <p>Because the template's literal text is checked by {@link TableNameTemplate#parse} and every
 * substituted value is sanitised, a routed path has no empty, {@code .} or {@code ..} directory,
 * no backslash, no leading {@code /}, and only the characters {@code [A-Za-z0-9_.-/]}: it stays
 * under {@code table.root}. Different values can sanitise to the same name (e.g. {@code a/b} and
 * {@code a_b}); such tables are shared.
 */
public final class TableRouter {
  /** Longest sanitised value, in characters (all ASCII, so also bytes); file systems allow 255. */
  public static final int MAX_VALUE_LENGTH = 128;
  /** Hex characters of the hash suffix that keeps capped values distinct. */
  private static final int HASH_SUFFIX_HEX_CHARS = 8;
  private static final char REPLACEMENT = '_';
  private static final String EMPTY_VALUE = "_";

  private final TableNameTemplate template;

  public TableRouter(TableNameTemplate template) {
    this.template = Objects.requireNonNull(template, "template");
  }

  /**
   * The table path for an event.
   *
   * @throws RoutingException naming the event's position when the template uses a source
   *     coordinate the event does not carry
   */
  public String route(ChangeEvent event) {
    try {
      return route(event.sinkTopic(), event.source());
    } catch (RoutingException e) {
      throw new RoutingException("cannot route record at topic " + event.topic() + ", partition " + event.partition()
          + ", offset " + event.offset() + ": " + e.getMessage());
    }
  }

  /**
   * The table path for a topic and source coordinates.
   *
   * @throws RoutingException when the template uses a source coordinate that is null
   */
  public String route(String topic, SourceInfo source) {
    StringBuilder path = new StringBuilder();
    for (Part part : template.parts()) {
      if (part instanceof Literal literal) {
        path.append(literal.text());
      } else {
        TableNameTemplate.Variable variable = ((Placeholder) part).variable();
        String value = switch (variable) {
          case TOPIC -> topic;
          case SOURCE_DB -> source.db();
          case SOURCE_SCHEMA -> source.schema();
          case SOURCE_TABLE -> source.table();
        };
        if (value == null) {
          throw new RoutingException("table.name.format '" + template.format() + "' uses ${"
              + variable.placeholderName() + "} but the record has no such value (is it a Debezium change event?)");
        }
        path.append(sanitize(value));
      }
    }
    return path.toString();
  }

  /**
   * A value made safe as (part of) one directory name: after Unicode NFC normalisation every code
   * point outside {@code [A-Za-z0-9_.-]} becomes {@code _}; an empty value becomes {@code _}; a
   * leading {@code .} becomes {@code _} (so {@code .} and {@code ..} are impossible); a value longer
   * than {@link #MAX_VALUE_LENGTH} is cut and ends with {@code -} and 8 hex digits of the SHA-256 of
   * the original value.
   */
  public static String sanitize(String value) {
    String normalized = Normalizer.normalize(value, Normalizer.Form.NFC);
    StringBuilder out = new StringBuilder(normalized.length());
    normalized.codePoints().forEach(cp -> out.append(isAllowed(cp) ? (char) cp : REPLACEMENT));
    if (out.isEmpty()) {
      return EMPTY_VALUE;
    }
    if (out.charAt(0) == '.') {
      out.setCharAt(0, REPLACEMENT);
    }
    if (out.length() > MAX_VALUE_LENGTH) {
      String hash = HexFormat.of().formatHex(sha256(value)).substring(0, HASH_SUFFIX_HEX_CHARS);
      out.setLength(MAX_VALUE_LENGTH - HASH_SUFFIX_HEX_CHARS - 1);
      out.append('-').append(hash);
    }
    return out.toString();
  }

  /** {@code relativePath} under {@code tableRoot}, joined with exactly one {@code /}. */
  public static String resolve(String tableRoot, String relativePath) {
    String root = tableRoot;
    while (root.length() > 1 && root.endsWith("/")) {
      root = root.substring(0, root.length() - 1);
    }
    return root.endsWith("/") ? root + relativePath : root + "/" + relativePath;
  }

  private static boolean isAllowed(int cp) {
    return (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')
        || cp == '_' || cp == '.' || cp == '-';
  }

  private static byte[] sha256(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
