package io.mergesink.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The build check that the plugin zip, as users install it, links on every supported Kafka Connect
 * worker: every class of every jar in it is read, and its references to the worker's API packages
 * are resolved against each supported version's own jars. A call to an API newer than the oldest
 * supported worker fails here, at build time, instead of in a user's deployment.
 */
class PluginApiIT {
  private static Map<String, ClassInfo> plugin;

  @BeforeAll
  static void readPlugin() {
    plugin = ClassScanner.withReferences(SupportedWorkers.pluginJars());
  }

  static List<String> versions() {
    return SupportedWorkers.versions();
  }

  @Test
  void pluginShipsNoClassOfThePackagesTheWorkerProvides() {
    // The worker would load its own copy instead (or, for a class it lacks, ours next to its own).
    List<String> shadowed = plugin.values().stream().filter(type -> WorkerApi.isWorkerProvided(type.name()))
        .map(type -> type.name().replace('/', '.') + " in " + type.source()).sorted().toList();
    assertThat(shadowed).as("classes of org.apache.kafka.* / org.slf4j.* inside the plugin zip").isEmpty();
  }

  @ParameterizedTest(name = "Kafka Connect {0}")
  @MethodSource("versions")
  void everyReferenceToTheWorkerApiResolves(String version) {
    WorkerApi.Report report = WorkerApi.load(version, plugin).check();
    System.out.printf("COMPAT api worker=%s references-checked=%d unresolved=%d unimplemented=%d%n", version,
        report.checked(), report.unresolved().size(), report.unimplemented().size());
    assertThat(report.checked()).as("references of the plugin to the worker's API").isPositive();
    assertThat(report.unresolved())
        .as("references of the plugin that a Kafka Connect %s worker does not have (guard a newer API and "
            + "annotate the class that uses it with @RequiresWorker)", version)
        .isEmpty();
    assertThat(report.unimplemented())
        .as("abstract methods of Kafka Connect %s types that plugin classes do not implement", version)
        .isEmpty();
  }

  @Test
  void classesThatNeedANewerWorkerNameASupportedVersion() {
    List<String> versions = SupportedWorkers.versions();
    String oldest = versions.get(0);
    String newest = versions.get(versions.size() - 1);
    List<String> outside = plugin.values().stream().filter(type -> type.requiredWorker() != null)
        .filter(type -> WorkerApi.compareVersions(type.requiredWorker(), oldest) <= 0
            || WorkerApi.compareVersions(type.requiredWorker(), newest) > 0)
        .map(type -> type.name() + " requires " + type.requiredWorker()).toList();
    assertThat(outside).as("@RequiresWorker versions outside (%s, %s]: such a class is never checked or needs "
        + "no guard", oldest, newest).isEmpty();
  }
}
