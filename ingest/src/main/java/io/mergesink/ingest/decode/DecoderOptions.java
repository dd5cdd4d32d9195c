package io.mergesink.ingest.decode;

import io.mergesink.ingest.options.PrimaryKeyMode;
import java.util.List;
import java.util.Objects;

/**
 * What {@link RecordDecoder} needs from the configuration.
 *
 * @param primaryKeyMode where keys come from
 * @param primaryKeyFields with {@code record_value}: the key columns of the value (required);
 *     with {@code record_key}: the key fields to use, in this order (empty: all fields of the key)
 * @param deleteEnabled whether deletes and tombstones delete rows (otherwise they are skipped)
 * @param truncateEnabled whether Debezium {@code t} events empty the table (otherwise skipped)
 * @param unavailableValuePlaceholder Debezium's placeholder for unchanged TOAST values
 * @param deleteImages whether deletes carry the row before the delete when the record has one (for
 *     append tables, whose rows of deletes hold it)
 * @param keysRequired whether a record must give a primary key (upsert tables); append tables land
 *     records without a Kafka key, since they identify rows by Kafka position
 */
public record DecoderOptions(
    PrimaryKeyMode primaryKeyMode,
    List<String> primaryKeyFields,
    boolean deleteEnabled,
    boolean truncateEnabled,
    String unavailableValuePlaceholder,
    boolean deleteImages,
    boolean keysRequired) {

  public DecoderOptions {
    Objects.requireNonNull(primaryKeyMode, "primaryKeyMode");
    primaryKeyFields = List.copyOf(primaryKeyFields);
    Objects.requireNonNull(unavailableValuePlaceholder, "unavailableValuePlaceholder");
    if (primaryKeyMode == PrimaryKeyMode.RECORD_VALUE && primaryKeyFields.isEmpty()) {
      throw new IllegalArgumentException("primary.key.mode=record_value needs primary.key.fields");
    }
  }
}
