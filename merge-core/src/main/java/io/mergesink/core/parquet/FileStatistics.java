package io.mergesink.core.parquet;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mergesink.core.data.Row;
import io.mergesink.core.types.StructType;
import java.io.UncheckedIOException;

/**
 * Delta's per-file statistics of the rows written so far, collected in the same pass that writes
 * them (no re-read of the file): {@code numRecords}, {@code minValues}, {@code maxValues},
 * {@code nullCount}, with nested objects for struct columns. See PROTOCOL.md, "Per-file
 * Statistics". {@code tightBounds} is not written: it is a property of the file's entry in the
 * log (false once a deletion vector is attached), which the committer decides.
 */
final class FileStatistics {
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);

  private final ColumnStats.Struct columns;
  private long numRecords;

  FileStatistics(StructType schema) {
    this.columns = new ColumnStats.Struct(schema);
  }

  void add(Row row) {
    numRecords++;
    columns.add(row);
  }

  long numRecords() {
    return numRecords;
  }

  String toJson() {
    ObjectNode stats = JSON.createObjectNode();
    stats.put("numRecords", numRecords);
    columns.putFieldMins(stats.putObject("minValues"));
    columns.putFieldMaxes(stats.putObject("maxValues"));
    columns.putFieldNullCounts(stats.putObject("nullCount"));
    try {
      return JSON.writeValueAsString(stats);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot serialize file statistics", e);
    }
  }
}
