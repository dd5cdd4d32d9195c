package io.mergesink.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The Spark-written tables under {@code src/test/resources/fixtures}, copied where a test may change them. */
public final class Fixtures {
  private Fixtures() {}

  /** Copies fixture table {@code name} (e.g. {@code dv-table}) into {@code target} and returns the copy's root. */
  public static Path copy(String name, Path target) {
    URL url = Fixtures.class.getResource("/fixtures/" + name);
    if (url == null) {
      throw new IllegalArgumentException("no fixture table " + name + " on the test classpath");
    }
    try {
      Path source = Path.of(url.toURI());
      try (Stream<Path> files = Files.walk(source)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          Path copy = target.resolve(source.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(copy);
          } else if (!file.getFileName().toString().endsWith(".md") && !file.getFileName().toString().endsWith(".csv")) {
            Files.copy(file, copy);
          }
        }
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
