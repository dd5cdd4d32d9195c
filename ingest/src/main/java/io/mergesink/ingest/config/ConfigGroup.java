package io.mergesink.ingest.config;

import io.mergesink.ingest.options.NamedOption;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Recommender;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * A fluent way to define the options of one configuration group: the order within the group is
 * the order of definition, so no option carries positional numbers.
 *
 * <pre>{@code
 * ConfigGroup tables = new ConfigGroup(def, "Tables");
 * tables.option("table.root", Type.STRING).importance(Importance.HIGH).doc("...").define();
 * }</pre>
 */
final class ConfigGroup {
  private final ConfigDef def;
  private final String name;
  private int nextOrder = 1;

  ConfigGroup(ConfigDef def, String name) {
    this.def = Objects.requireNonNull(def, "def");
    this.name = Objects.requireNonNull(name, "name");
  }

  Option option(String optionName, Type type) {
    return new Option(optionName, type);
  }

  /** One option being defined; {@link #define()} adds it to the group's {@link ConfigDef}. */
  final class Option {
    private final String optionName;
    private final Type type;
    private Object defaultValue = ConfigDef.NO_DEFAULT_VALUE;
    private Validator validator;
    private Importance importance = Importance.MEDIUM;
    private String doc;
    private String displayName;
    private Width width = Width.MEDIUM;
    private Recommender recommender;

    private Option(String optionName, Type type) {
      this.optionName = optionName;
      this.type = type;
    }

    Option defaultValue(Object value) {
      this.defaultValue = value;
      return this;
    }

    Option validator(Validator value) {
      this.validator = value;
      return this;
    }

    Option importance(Importance value) {
      this.importance = value;
      return this;
    }

    Option doc(String value) {
      this.doc = value;
      return this;
    }

    Option displayName(String value) {
      this.displayName = value;
      return this;
    }

    Option width(Width value) {
      this.width = value;
      return this;
    }

    Option recommender(Recommender value) {
      this.recommender = value;
      return this;
    }

    /** Enum-valued: a case-insensitive validator and a recommender for the constants' names. */
    <E extends Enum<E> & NamedOption> Option oneOf(Class<E> type) {
      String[] names = NamedOption.names(type).toArray(new String[0]);
      this.validator = new OneOf(List.of(names));
      this.recommender = new FixedValues(List.of((Object[]) names));
      this.width = Width.SHORT;
      return this;
    }

    void define() {
      if (doc == null || displayName == null) {
        throw new IllegalStateException("option " + optionName + " needs a doc string and a display name");
      }
      def.define(optionName, type, defaultValue, validator, importance, doc, name, nextOrder++, width,
          displayName, List.of(), recommender);
    }
  }

  /** Accepts one of {@code values}, ignoring case; the message lists them in order. */
  private record OneOf(List<String> values) implements Validator {
    @Override
    public void ensureValid(String option, Object value) {
      for (String valid : values) {
        if (value instanceof String text && valid.equalsIgnoreCase(text.trim())) {
          return;
        }
      }
      throw new org.apache.kafka.common.config.ConfigException(option, value,
          "expected one of " + String.join(", ", values) + " (case-insensitive)");
    }

    @Override
    public String toString() {
      return String.join(", ", values);
    }
  }

  /** Recommends a fixed list of values, always visible. */
  private record FixedValues(List<Object> values) implements Recommender {
    @Override
    public List<Object> validValues(String option, java.util.Map<String, Object> parsedConfig) {
      return values;
    }

    @Override
    public boolean visible(String option, java.util.Map<String, Object> parsedConfig) {
      return true;
    }
  }
}
