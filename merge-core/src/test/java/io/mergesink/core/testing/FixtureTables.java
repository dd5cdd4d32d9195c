package io.mergesink.core.testing;

import io.mergesink.core.types.ArrayType;
import io.mergesink.core.types.DecimalType;
import io.mergesink.core.types.MapType;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Spark-written tables under {@code src/test/resources/fixtures/<name>/} (copies of
 * {@code shared/fixtures}) and their {@code EXPECTED_ROWS.csv}.
 *
 * <p>Tests read these copies in place; a test that writes to a fixture table copies it into a
 * {@code @TempDir} first.
 */
public final class FixtureTables {
  /** The schema of the {@code types-table} fixture, as PROVENANCE.md creates it. */
  public static final StructType TYPES_TABLE_SCHEMA = StructType.of(
      new StructField("id", PrimitiveType.INTEGER, false),
      new StructField("b", PrimitiveType.BYTE, true),
      new StructField("s", PrimitiveType.SHORT, true),
      new StructField("l", PrimitiveType.LONG, true),
      new StructField("f", PrimitiveType.FLOAT, true),
      new StructField("d", PrimitiveType.DOUBLE, true),
      new StructField("dec", new DecimalType(38, 10), true),
      new StructField("str", PrimitiveType.STRING, true),
      new StructField("bin", PrimitiveType.BINARY, true),
      new StructField("flag", PrimitiveType.BOOLEAN, true),
      new StructField("day", PrimitiveType.DATE, true),
      new StructField("ts", PrimitiveType.TIMESTAMP, true),
      new StructField("ts_ntz", PrimitiveType.TIMESTAMP_NTZ, true),
      new StructField("arr", new ArrayType(PrimitiveType.STRING, true), true),
      new StructField("st", StructType.of(
          new StructField("x", PrimitiveType.INTEGER, true),
          new StructField("y", PrimitiveType.STRING, true)), true),
      new StructField("m", new MapType(PrimitiveType.STRING, PrimitiveType.LONG, true), true));

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
  private static Path extractedRoot;

  private FixtureTables() {}

  /** The names of every fixture table, sorted. */
  public static List<String> names() {
    Path root = path("dv-table").getParent();
    try (java.util.stream.Stream<Path> tables = Files.list(root)) {
      return tables.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("listing fixtures in " + root, e);
    }
  }

  /**
   * Records (the CSV's, or rendered by {@link SparkStrings}) as sorted JSON arrays, a form in which
   * two multisets of rows compare equal exactly when they are, and in which a null never reads
   * like the string "null".
   */
  public static List<String> sorted(List<List<String>> records) {
    List<String> lines = new ArrayList<>(records.size());
    for (List<String> record : records) {
      try {
        lines.add(JSON.writeValueAsString(record));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    lines.sort(null);
    return lines;
  }

  /**
   * The local directory of fixture table {@code name}, for example {@code dv-table}. Read from the
   * test classes directory, or, when another module's tests use merge-core's test jar, from a copy
   * extracted once per JVM into a temporary directory.
   */
  public static Path path(String name) {
    URL url = FixtureTables.class.getResource("/fixtures/" + name);
    if (url == null) {
      throw new IllegalArgumentException("no fixture table '" + name + "' under src/test/resources/fixtures/");
    }
    try {
      if ("jar".equals(url.getProtocol())) {
        return extracted().resolve(name);
      }
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("fixture URL " + url + " is not a file URI", e);
    }
  }

  /** Every fixture, extracted from the test jar that holds this class into a temporary directory (once). */
  private static synchronized Path extracted() throws URISyntaxException {
    if (extractedRoot == null) {
      URL url = FixtureTables.class.getResource("/fixtures");
      try (java.nio.file.FileSystem jar = java.nio.file.FileSystems.newFileSystem(url.toURI(), Map.of());
           java.util.stream.Stream<Path> files = Files.walk(jar.getPath("/fixtures"))) {
        Path target = Files.createTempDirectory("mergesink-fixtures");
        for (Path file : (Iterable<Path>) files::iterator) {
          Path copy = target.resolve(jar.getPath("/fixtures").relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(copy);
          } else {
            Files.copy(file, copy);
          }
        }
        extractedRoot = target;
      } catch (IOException e) {
        throw new UncheckedIOException("extracting the fixtures from " + url, e);
      }
    }
    return extractedRoot;
  }

  /** Copies fixture table {@code name} into {@code target} (data and log only) and returns the copy's root. */
  public static Path copy(String name, Path target) {
    Path source = path(name);
    try (java.util.stream.Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path copy = target.resolve(source.relativize(file).toString());
        String fileName = file.getFileName().toString();
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else if (!fileName.equals("PROVENANCE.md") && !fileName.equals("EXPECTED_ROWS.csv")) {
          Files.copy(file, copy);
        }
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("copying fixture " + name + " to " + target, e);
    }
  }

  /**
   * The records of the fixture's {@code EXPECTED_ROWS.csv} without the header line: values as
   * Spark's {@code CAST(... AS STRING)} rendered them, an empty unquoted field as null.
   */
  public static List<List<String>> expectedRows(String name) {
    List<List<String>> records = parseCsv(read(path(name).resolve("EXPECTED_ROWS.csv")));
    return records.subList(1, records.size());
  }

  /** The header line of the fixture's {@code EXPECTED_ROWS.csv}. */
  public static List<String> expectedColumns(String name) {
    return parseCsv(read(path(name).resolve("EXPECTED_ROWS.csv"))).get(0);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + file, e);
    }
  }

  /** RFC 4180 records; quoted fields may hold commas, doubled quotes and line breaks; an empty unquoted field is null. */
  public static List<List<String>> parseCsv(String text) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
        wasQuoted = true;
      } else if (c == ',' || c == '\n') {
        record.add(field.length() == 0 && !wasQuoted ? null : field.toString());
        field.setLength(0);
        wasQuoted = false;
        if (c == '\n') {
          records.add(record);
          record = new ArrayList<>();
        }
      } else if (c != '\r') {
        field.append(c);
      }
    }
    if (field.length() > 0 || wasQuoted || !record.isEmpty()) {
      record.add(field.length() == 0 && !wasQuoted ? null : field.toString());
      records.add(record);
    }
    return records;
  }
}
