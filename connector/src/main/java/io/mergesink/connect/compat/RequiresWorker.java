package io.mergesink.connect.compat;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that uses Kafka API newer than the oldest supported Kafka Connect worker (3.6), and
 * that is therefore loaded only after a check that the worker has that API; elsewhere the plugin
 * falls back (docs/design.md, "Kafka Connect versions"). The build's API check
 * ({@code compat/tests}, {@code PluginApiIT}) checks such a class only against workers of
 * {@link #value()} and newer, and every other class against every supported worker.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface RequiresWorker {
  /** The oldest Kafka Connect version that has the API, e.g. {@code "4.1"}. */
  String value();
}
