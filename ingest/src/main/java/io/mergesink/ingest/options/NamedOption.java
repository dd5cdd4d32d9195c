package io.mergesink.ingest.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** An enum constant with the lower-case name users write in configuration. */
public interface NamedOption {
  /** The name users write in configuration. */
  String configName();

  /** The configuration names of all constants of {@code type}, in declaration order. */
  static <E extends Enum<E> & NamedOption> List<String> names(Class<E> type) {
    List<String> names = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      names.add(constant.configName());
    }
    return names;
  }

  /**
   * The constant whose name equals {@code name} ignoring case.
   *
   * @throws IllegalArgumentException naming the option and the valid values when none matches
   */
  static <E extends Enum<E> & NamedOption> E parse(Class<E> type, String option, String name) {
    for (E constant : type.getEnumConstants()) {
      if (constant.configName().equalsIgnoreCase(name == null ? "" : name.trim())) {
        return constant;
      }
    }
    throw new IllegalArgumentException("invalid value '" + name + "' for " + option + ": expected one of "
        + names(type).toString().toLowerCase(Locale.ROOT));
  }
}
