package io.mergesink.ingest.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Accepts a list of distinct, non-blank names. Kafka's {@code ValidList.anyNonDuplicateValues} does
 * this from Kafka 4.2 on only, and the connector runs on workers from 3.6 on (docs/design.md,
 * "Kafka Connect versions").
 *
 * @param what what the names are, for messages and the reference ("column names")
 */
record DistinctNames(String what) implements ConfigDef.Validator {
  @Override
  public void ensureValid(String option, Object value) {
    if (!(value instanceof List<?> names)) {
      throw new ConfigException(option, value, "expected a comma-separated list of " + what);
    }
    Set<String> seen = new HashSet<>();
    for (Object name : names) {
      if (name == null || name.toString().isBlank()) {
        throw new ConfigException(option, value, "expected " + what + ", found an empty entry");
      }
      if (!seen.add(name.toString())) {
        throw new ConfigException(option, value, "expected distinct " + what + ", found " + name + " more than once");
      }
    }
  }

  @Override
  public String toString() {
    return "comma-separated distinct " + what;
  }
}
