package io.mergesink.bench;

import java.lang.management.ManagementFactory;
import java.util.List;

/** The JVM a suite ran in, for its report's header: the heap options change e2e rates by up to 1.8× (bench/README.md, "A fresh JVM's heap"). */
final class JvmDescription {
  private static final long MIB = 1024 * 1024;

  private JvmDescription() {}

  /** E.g. "Java 17.0.15, 2 CPUs, max heap 4,096 MiB (-Xms4g -Xmx4g -XX:+AlwaysPreTouch)". */
  static String describe() {
    Runtime runtime = Runtime.getRuntime();
    List<String> heapOptions = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(option -> option.startsWith("-Xms") || option.startsWith("-Xmx") || option.contains("AlwaysPreTouch"))
        .toList();
    return String.format("Java %s, %d CPUs, max heap %,d MiB (%s)", System.getProperty("java.version"), runtime.availableProcessors(),
        runtime.maxMemory() / MIB, heapOptions.isEmpty() ? "default heap options" : String.join(" ", heapOptions));
  }
}
