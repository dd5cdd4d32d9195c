package io.mergesink.compat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Kafka Connect worker versions the plugin supports, their class paths, and the installed
 * plugin, as the build hands them to the tests (system properties set in compat/tests/pom.xml).
 */
final class SupportedWorkers {
  private SupportedWorkers() {}

  /** Every supported worker version, oldest first. */
  static List<String> versions() {
    return listProperty("compat.supported.versions");
  }

  /** The versions the worker test runs: the oldest and the newest, or all with {@code -Pcompat}. */
  static List<String> runVersions() {
    return listProperty("compat.run.versions");
  }

  /**
   * The jars of a {@code version} worker: connect-runtime and everything it needs, as resolved by
   * the worker's module under compat/workers.
   */
  static List<Path> classpath(String version) {
    Path file = Paths.get(property("compat.workers.dir"), version, "target", "worker.classpath");
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException("no class path of Kafka Connect " + version + " at " + file
          + ": build its module compat/workers/" + version + " (./mvnw -pl compat/tests -am verify)");
    }
    try {
      String text = Files.readString(file).trim();
      return Arrays.stream(text.split(File.pathSeparator)).map(Paths::get).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + file, e);
    }
  }

  /** The {@code plugin.path} directory the plugin zip was unpacked into. */
  static Path pluginPath() {
    return Paths.get(property("compat.plugin.dir"));
  }

  /** The jars of the installed plugin (its {@code lib/} directory). */
  static List<Path> pluginJars() {
    Path pluginPath = pluginPath();
    try (Stream<Path> files = Files.walk(pluginPath)) {
      List<Path> jars = files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList();
      if (jars.isEmpty()) {
        throw new IllegalStateException("no plugin jars under " + pluginPath + ": the plugin zip was not unpacked");
      }
      return jars;
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + pluginPath, e);
    }
  }

  private static List<String> listProperty(String name) {
    return Arrays.stream(property(name).split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("system property " + name + " is not set; run the tests through Maven "
          + "(compat/tests/pom.xml sets it)");
    }
    return value;
  }
}
