package io.mergesink.core.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The Spark-written fixture tables under {@code src/test/resources/fixtures/}. */
public final class Fixtures {
  private Fixtures() {}

  /** The fixture table as it lies in the test resources (read only by convention). */
  public static Path table(String name) {
    try {
      return Path.of(Fixtures.class.getResource("/fixtures/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A writable copy of the fixture table inside {@code dir}. */
  public static Path copy(String name, Path dir) {
    Path source = table(name);
    Path target = dir.resolve(name);
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path dest = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(file, dest);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return target;
  }
}
