package io.mergesink.ingest.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A parsed {@code table.name.format}: literal text and {@code ${...}} placeholders. The result of
 * substituting every placeholder is a table path relative to {@code table.root}, with {@code /}
 * separating directories.
 *
 * <p>Rules for the literal text, checked by {@link #parse}: only {@code [A-Za-z0-9_.-]} and
 * {@code /}; no leading or trailing {@code /}, no empty directory, no directory that is made of
 * literal text alone and starts with {@code .} (which also excludes {@code .} and {@code ..}).
 * Placeholder values are sanitised by {@link TableRouter#sanitize}, so they can neither add
 * directories nor climb out of {@code table.root}.
 */
public final class TableNameTemplate {
  private static final String OPEN = "${";
  private static final char CLOSE = '}';
  private static final char SEPARATOR = '/';
  private static final Pattern LITERAL_CHARS = Pattern.compile("[A-Za-z0-9_./-]*");

  /** The placeholders a format may use. */
  public enum Variable {
    /** The record's topic (after single message transforms). */
    TOPIC("topic"),
    /** Debezium {@code source.db}. */
    SOURCE_DB("source.db"),
    /** Debezium {@code source.schema} (PostgreSQL, SQL Server; absent for MySQL). */
    SOURCE_SCHEMA("source.schema"),
    /** Debezium {@code source.table}. */
    SOURCE_TABLE("source.table");

    private final String placeholderName;

    Variable(String placeholderName) {
      this.placeholderName = placeholderName;
    }

    /** The name between {@code ${} and {@code }}. */
    public String placeholderName() {
      return placeholderName;
    }

    static Variable fromPlaceholderName(String name) {
      for (Variable variable : values()) {
        if (variable.placeholderName.equals(name)) {
          return variable;
        }
      }
      return null;
    }
  }

  /** One piece of a format: literal text or a placeholder. */
  public sealed interface Part permits Literal, Placeholder {}

  /** Literal text, kept as written. */
  public record Literal(String text) implements Part {}

  /** A {@code ${variable}} to substitute. */
  public record Placeholder(Variable variable) implements Part {}

  private final String format;
  private final List<Part> parts;

  private TableNameTemplate(String format, List<Part> parts) {
    this.format = format;
    this.parts = List.copyOf(parts);
  }

  /**
   * Parses a format.
   *
   * @throws IllegalArgumentException saying what is wrong and where (character position) when
   *     the format is empty, has an unterminated or unknown placeholder, or literal text that
   *     breaks the rules above
   */
  public static TableNameTemplate parse(String format) {
    Objects.requireNonNull(format, "format");
    if (format.isBlank()) {
      throw new IllegalArgumentException("the table name format is empty; use e.g. ${topic}");
    }
    List<Part> parts = new ArrayList<>();
    int position = 0;
    while (position < format.length()) {
      int open = format.indexOf(OPEN, position);
      if (open < 0) {
        parts.add(new Literal(format.substring(position)));
        break;
      }
      if (open > position) {
        parts.add(new Literal(format.substring(position, open)));
      }
      int close = format.indexOf(CLOSE, open);
      if (close < 0) {
        throw new IllegalArgumentException("unterminated placeholder at position " + open + " of '" + format
            + "': expected '}' after '" + format.substring(open) + "'");
      }
      String name = format.substring(open + OPEN.length(), close).trim();
      Variable variable = Variable.fromPlaceholderName(name);
      if (variable == null) {
        throw new IllegalArgumentException("unknown placeholder ${" + name + "} at position " + open + " of '"
            + format + "': expected one of " + placeholderNames());
      }
      parts.add(new Placeholder(variable));
      position = close + 1;
    }
    checkLiterals(format, parts);
    return new TableNameTemplate(format, parts);
  }

  private static void checkLiterals(String format, List<Part> parts) {
    for (Part part : parts) {
      if (part instanceof Literal literal && !LITERAL_CHARS.matcher(literal.text()).matches()) {
        throw new IllegalArgumentException("the table name format '" + format + "' has literal text '"
            + literal.text() + "' with characters other than A-Z a-z 0-9 _ . - and /");
      }
    }
    // Check directories: split the format into segments at literal '/' characters.
    List<List<Part>> segments = new ArrayList<>();
    List<Part> current = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        String text = literal.text();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
          if (text.charAt(i) == SEPARATOR) {
            if (i > start) {
              current.add(new Literal(text.substring(start, i)));
            }
            segments.add(current);
            current = new ArrayList<>();
            start = i + 1;
          }
        }
        if (start < text.length()) {
          current.add(new Literal(text.substring(start)));
        }
      } else {
        current.add(part);
      }
    }
    segments.add(current);
    for (List<Part> segment : segments) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException("the table name format '" + format
            + "' has an empty directory name (a leading, trailing or doubled '/')");
      }
      if (segment.get(0) instanceof Literal first && first.text().startsWith(".")) {
        throw new IllegalArgumentException("the table name format '" + format + "' has a directory starting with '"
            + first.text() + "': directory names must not start with '.' (no hidden, '.' or '..' directories)");
      }
    }
  }

  /** The names a format may use, as {@code ${name}}. */
  public static List<String> placeholderNames() {
    List<String> names = new ArrayList<>();
    for (Variable variable : Variable.values()) {
      names.add("${" + variable.placeholderName() + "}");
    }
    return names;
  }

  public List<Part> parts() {
    return parts;
  }

  /** Whether the format uses {@code variable}. */
  public boolean uses(Variable variable) {
    return parts.contains(new Placeholder(variable));
  }

  /** The format as written. */
  public String format() {
    return format;
  }

  @Override
  public String toString() {
    return format;
  }
}
