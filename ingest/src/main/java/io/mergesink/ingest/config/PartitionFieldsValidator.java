package io.mergesink.ingest.config;

import io.mergesink.ingest.options.PartitionField;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Validates {@code partition.fields}: comma-separated {@code column}, {@code column=expression} or {@code transform(column)} ({@link PartitionField}). */
final class PartitionFieldsValidator implements ConfigDef.Validator {

  /**
   * The fields of the option's value.
   *
   * @throws ConfigException naming the option when an entry does not parse
   */
  static List<PartitionField> parse(String option, List<String> entries) {
    try {
      return PartitionField.parse(entries);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(option, entries, e.getMessage());
    }
  }

  @Override
  public void ensureValid(String option, Object value) {
    if (!(value instanceof List<?> entries)) {
      throw new ConfigException(option, value, "expected a comma-separated list of partition columns");
    }
    parse(option, entries.stream().map(String::valueOf).toList());
  }

  @Override
  public String toString() {
    return "comma-separated column, column=expression or transform(column)";
  }
}
