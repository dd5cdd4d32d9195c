package io.mergesink.core.rowtracking;

import io.mergesink.core.data.Row;
import io.mergesink.core.log.AddFile;
import io.mergesink.core.log.Metadata;
import io.mergesink.core.log.Protocol;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.util.Map;
import java.util.Optional;

/**
 * The materialized row id and row commit version columns of a table with row tracking enabled
 * (PROTOCOL.md, "Row IDs" and "Row Commit Versions"): hidden {@code long} columns of the data files,
 * named by {@value RowTracking#ROW_ID_COLUMN_PROPERTY} and
 * {@value RowTracking#COMMIT_VERSION_COLUMN_PROPERTY}, not part of the logical schema. A row's
 * stable row id is its materialized one when not null, else its file's {@code baseRowId} plus its
 * physical position; its stable commit version is the materialized one when not null, else its
 * file's {@code defaultRowCommitVersion}.
 *
 * <p>Writers that move a row (compaction, copy-on-write) write its stable values into these
 * columns, and an updated row gets its old stable id and a null commit version (the new file's
 * default, the commit's version): that is how a row keeps its id, as the protocol expects of
 * writers while row tracking is enabled. Rows newly inserted get nulls (their fresh values).
 *
 * @param rowId the physical name of the materialized row id column
 * @param commitVersion the physical name of the materialized row commit version column
 */
public record MaterializedColumns(String rowId, String commitVersion) {

  /**
   * The columns of a table whose writers preserve stable row ids: row tracking is enabled
   * ({@value RowTracking#ENABLE_PROPERTY}{@code =true}, the feature supported and not suspended)
   * and both column names are set; empty otherwise, when rows only get fresh ids.
   */
  public static Optional<MaterializedColumns> of(Protocol protocol, Metadata metadata) {
    Map<String, String> configuration = metadata.configuration();
    String rowId = configuration.get(RowTracking.ROW_ID_COLUMN_PROPERTY);
    String commitVersion = configuration.get(RowTracking.COMMIT_VERSION_COLUMN_PROPERTY);
    boolean enabled = Boolean.parseBoolean(configuration.getOrDefault(RowTracking.ENABLE_PROPERTY, "false").trim());
    if (!enabled || !RowTracking.assignsRowIds(protocol, metadata) || rowId == null || commitVersion == null) {
      return Optional.empty();
    }
    return Optional.of(new MaterializedColumns(rowId, commitVersion));
  }

  /** The two columns, row id first, as a physical read schema. */
  public StructType schema() {
    return StructType.of(new StructField(rowId, PrimitiveType.LONG, true), new StructField(commitVersion, PrimitiveType.LONG, true));
  }

  /** {@code dataSchema} followed by the two columns: the schema of the data files this table's writers write. */
  public StructType appendTo(StructType dataSchema) {
    StructType schema = dataSchema;
    for (StructField field : schema().fields()) {
      schema = schema.add(field);
    }
    return schema;
  }

  /** {@code dataRow} followed by {@code rowId} and {@code commitVersion}, for a file of {@link #appendTo} schema. */
  public static Row append(Row dataRow, Long rowId, Long commitVersion) {
    Object[] values = new Object[dataRow.size() + 2];
    System.arraycopy(dataRow.toArray(), 0, values, 0, dataRow.size());
    values[values.length - 2] = rowId;
    values[values.length - 1] = commitVersion;
    return Row.of(values);
  }

  /**
   * The stable row id of the row at {@code rowIndex} of {@code file} whose materialized row id is
   * {@code materialized}; null when it has none and the file has no {@code baseRowId}.
   */
  public static Long stableRowId(Long materialized, AddFile file, long rowIndex) {
    if (materialized != null) {
      return materialized;
    }
    return file.baseRowId() == null ? null : file.baseRowId() + rowIndex;
  }

  /** The stable commit version of a row of {@code file} whose materialized one is {@code materialized}, or null. */
  public static Long stableCommitVersion(Long materialized, AddFile file) {
    return materialized != null ? materialized : file.defaultRowCommitVersion();
  }
}
