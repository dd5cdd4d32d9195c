/**
 * The table-format seam (docs/design.md, "Table formats"): what the engine needs from a table
 * format, and the one place a connector's {@code table.format} is turned into one
 * ({@link io.mergesink.ingest.format.TableFormats}). A {@link io.mergesink.ingest.format.TableFormat}
 * finds, opens and creates tables; a {@link io.mergesink.ingest.format.FormatTable} is one open
 * table: its schema and properties, the positions it records per Kafka partition, schema
 * evolution, its writer (commits of change sets with their positions) and its maintenance.
 * Table kinds, ordering and soft deletes stay above the seam and produce the same change sets for
 * every format; a format only lands them. Each format lives in a package of its own
 * ({@code format.delta}); no class outside it names its types.
 */
package io.mergesink.ingest.format;
