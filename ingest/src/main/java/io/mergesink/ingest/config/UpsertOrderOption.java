package io.mergesink.ingest.config;

import io.mergesink.ingest.options.UpsertOrder;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Validates {@code upsert.order.by} ({@link UpsertOrder#parse}) and recommends its fixed values;
 * a column name is accepted too. Shown with keyed tables ({@code write.mode=upsert} or {@code history}).
 */
final class UpsertOrderOption implements ConfigDef.Validator, ConfigDef.Recommender {
  @Override
  public void ensureValid(String option, Object value) {
    try {
      UpsertOrder.parse(value == null ? null : value.toString());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(option, value, e.getMessage());
    }
  }

  @Override
  public List<Object> validValues(String option, Map<String, Object> parsedConfig) {
    return List.of("none", "source.lsn", "source.ts_ms");
  }

  @Override
  public boolean visible(String option, Map<String, Object> parsedConfig) {
    return !"append".equalsIgnoreCase(String.valueOf(parsedConfig.get(WriteOptions.WRITE_MODE)));
  }

  @Override
  public String toString() {
    return "none, source.lsn, source.ts_ms or a column name";
  }
}
