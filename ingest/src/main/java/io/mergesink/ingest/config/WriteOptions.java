package io.mergesink.ingest.config;

import io.mergesink.core.generatedcolumns.GenerationExpression;
import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.ingest.options.AppendTombstones;
import io.mergesink.ingest.options.ChangeSemantics;
import io.mergesink.ingest.options.DeleteImage;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.PartitionTransform;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.options.SchemaEvolution;
import io.mergesink.ingest.options.WriteMode;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/** How records become rows: the kind of table, keys, deletes and truncates, ordering, schema changes, partitions. */
public final class WriteOptions {
  public static final String GROUP = "Writes";
  public static final String WRITE_MODE = "write.mode";
  public static final String APPEND_DELETE_IMAGE = "append.delete.image";
  public static final String APPEND_TOMBSTONES = "append.tombstones";
  public static final String MERGE_STRATEGY = "merge.strategy";
  public static final String PRIMARY_KEY_MODE = "primary.key.mode";
  public static final String PRIMARY_KEY_FIELDS = "primary.key.fields";
  public static final String DELETE_ENABLED = "delete.enabled";
  public static final String TRUNCATE_ENABLED = "truncate.enabled";
  public static final String UPSERT_ORDER_BY = "upsert.order.by";
  public static final String UPSERT_ORDER_DELETED_KEYS_MAX = "upsert.order.deleted.keys.max";
  public static final String DELETE_MODE = "delete.mode";
  public static final String SCHEMA_EVOLUTION = "schema.evolution";
  public static final String PARTITION_FIELDS = "partition.fields";

  public static final WriteMode WRITE_MODE_DEFAULT = WriteMode.UPSERT;
  public static final DeleteImage APPEND_DELETE_IMAGE_DEFAULT = DeleteImage.BEFORE;
  public static final AppendTombstones APPEND_TOMBSTONES_DEFAULT = AppendTombstones.SKIP_AFTER_DELETE;
  public static final MergeStrategy MERGE_STRATEGY_DEFAULT = MergeStrategy.DELETION_VECTORS;
  public static final PrimaryKeyMode PRIMARY_KEY_MODE_DEFAULT = PrimaryKeyMode.RECORD_KEY;
  public static final boolean DELETE_ENABLED_DEFAULT = true;
  public static final boolean TRUNCATE_ENABLED_DEFAULT = false;
  public static final SchemaEvolution SCHEMA_EVOLUTION_DEFAULT = SchemaEvolution.ADD_COLUMNS;

  private WriteOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup writes = new ConfigGroup(def, GROUP);
    writes.option(WRITE_MODE, Type.STRING).defaultValue(WRITE_MODE_DEFAULT.configName()).oneOf(WriteMode.class)
        .importance(Importance.HIGH).displayName("Write mode")
        .doc("upsert: the table holds the latest row per primary key; changes are coalesced per key and merged. "
            + "append: every change event becomes a new row with its operation and Kafka position (audit or bronze "
            + "tables); no key is needed. history: a history table (SCD type 2) keyed like upsert, where every version "
            + "of a key is a row with __valid_from and __valid_to (the changes' source times, Debezium ts_ms, else "
            + "the Kafka timestamp) and __current; a change closes the key's current row and adds the new version, a "
            + "delete closes it, a truncate closes every current row; at most one current row per key. Versions "
            + "follow Kafka order. Works with both merge strategies.")
        .define();
    writes.option(APPEND_DELETE_IMAGE, Type.STRING).defaultValue(APPEND_DELETE_IMAGE_DEFAULT.configName()).oneOf(DeleteImage.class)
        .importance(Importance.MEDIUM).displayName("Append delete image")
        .doc("With write.mode=append, what the row of a delete holds besides its audit columns. before: the row "
            + "before the delete when the event carries one (Debezium's before; complete with PostgreSQL REPLICA "
            + "IDENTITY FULL or MySQL's full row image), else the key. key: the key columns only. With PostgreSQL's "
            + "default replica identity Debezium fills the NOT NULL columns of before with '' and 0: use key there. "
            + "The other columns of a delete's row are null, so append tables keep every non-key column nullable.")
        .define();
    writes.option(APPEND_TOMBSTONES, Type.STRING).defaultValue(APPEND_TOMBSTONES_DEFAULT.configName())
        .oneOf(AppendTombstones.class).importance(Importance.MEDIUM).displayName("Append tombstones")
        .doc("With write.mode=append, what a Kafka tombstone (a record with a key and no value) records. "
            + "skip-after-delete: nothing when the record before it in its partition is the delete of its key "
            + "(Debezium's tombstones.on.delete, on by default, sends one after every delete event: the delete is "
            + "the change's row), else a delete row of its key (a source that deletes by tombstone only). Its Kafka "
            + "position still counts as written. record: a delete row for every tombstone, so each Debezium delete "
            + "lands as two rows, the second holding only the key.")
        .define();
    writes.option(MERGE_STRATEGY, Type.STRING).defaultValue(MERGE_STRATEGY_DEFAULT.configName())
        .oneOf(TableMergeStrategy.class).importance(Importance.HIGH).displayName("Merge strategy")
        .doc("How replaced and deleted rows are removed. deletion-vectors: mark them in deletion vectors (cheap "
            + "writes; readers need deletion vector support, e.g. Spark 3.4+/Delta 2.4+, Trino, DuckDB, Delta "
            + "Kernel). copy-on-write: rewrite the files that hold them (any Delta reader). Also decides whether new "
            + "keyed tables enable deletion vectors; append tables (write.mode=append) are created without them and "
            + "need no deletion vector support to read.")
        .define();
    writes.option(PRIMARY_KEY_MODE, Type.STRING).defaultValue(PRIMARY_KEY_MODE_DEFAULT.configName())
        .oneOf(PrimaryKeyMode.class).importance(Importance.HIGH).displayName("Primary key mode")
        .doc("Where the primary key comes from. record_key: the fields of the Kafka record key (Debezium puts the "
            + "table's primary key there); a primitive key needs one " + PRIMARY_KEY_FIELDS + " entry naming its "
            + "column. record_value: the " + PRIMARY_KEY_FIELDS + " of the record value.")
        .define();
    writes.option(PRIMARY_KEY_FIELDS, Type.LIST).defaultValue("")
        .validator(new DistinctNames("column names")).importance(Importance.MEDIUM)
        .displayName("Primary key fields")
        .doc("Comma-separated key column names. Required with primary.key.mode=record_value. With record_key, "
            + "optional: selects and orders key fields (empty: all fields of the record key).")
        .define();
    writes.option(DELETE_ENABLED, Type.BOOLEAN).defaultValue(DELETE_ENABLED_DEFAULT).importance(Importance.MEDIUM)
        .displayName("Deletes enabled")
        .doc("Whether Debezium deletes ('d', __deleted=true, __op=d) and tombstones (null values) delete the row "
            + "with their key. When false they are skipped (the position still advances).")
        .define();
    writes.option(TRUNCATE_ENABLED, Type.BOOLEAN).defaultValue(TRUNCATE_ENABLED_DEFAULT).importance(Importance.MEDIUM)
        .displayName("Truncates enabled")
        .doc("Whether Debezium truncate events ('t') delete every row of the table. When false they are skipped "
            + "and logged once per topic.")
        .define();
    writes.option(UPSERT_ORDER_BY, Type.STRING).defaultValue(ChangeSemantics.DEFAULT.orderBy().configValue())
        .validator(new UpsertOrderOption()).recommender(new UpsertOrderOption()).importance(Importance.MEDIUM)
        .displayName("Upsert order by")
        .doc("Which change of a key wins when Kafka delivers them out of order or twice (a re-snapshot after "
            + "streaming, a Debezium restart from an older position, a re-partitioned topic), with " + WRITE_MODE
            + "=upsert or history. none: the last delivered (Kafka order), as blind upserts that read nothing. source.lsn: "
            + "PostgreSQL's source.lsn, kept in a BIGINT column __source_lsn that MergeSink adds. source.ts_ms: when "
            + "the change was made in the database (source.ts_ms), kept in __source_ts_ms. Any other value names a "
            + "column of the table whose values order its changes (a version or update time). A change is applied "
            + "when its sequence is newer than the row's; on a tie the later delivery wins, except with source.lsn "
            + "(an equal LSN is the same change, or a snapshot row read just before it). Older changes are "
            + "skipped and counted (changes-skipped-stale-total). A Kafka "
            + "tombstone carries no source position and changes nothing the Debezium delete before it did not. "
            + "With a named column, deletes carry no value of it and apply in Kafka order. With " + WRITE_MODE
            + "=history every version keeps its sequence and that of the change that ended it (__valid_to_source_lsn, "
            + "__valid_to_source_ts_ms, or __valid_to_<column>), and a late change lands in its place of the key's "
            + "history: the version before it ends at its time. See docs/cdc-semantics.md, 'Ordering by a source sequence' "
            + "and 'History tables'.")
        .define();
    writes.option(UPSERT_ORDER_DELETED_KEYS_MAX, Type.INT).defaultValue(ChangeSemantics.DEFAULT_DELETED_KEYS_MAX)
        .validator(Range.atLeast(0)).importance(Importance.LOW).displayName("Upsert order deleted keys")
        .doc("With " + UPSERT_ORDER_BY + ", how many keys of deletes each task remembers per table with their "
            + "sequence, so that an older change of a deleted key arriving later does not bring the row back (a "
            + "hard-deleted row no longer holds its sequence). Beyond it the oldest are forgotten. Ordered by a source "
            + "position (and in tables whose topic grew), each commit names the keys it deleted, so a task knows every "
            + "task's deletes, after a restart those of the last 100 commits; ordered by a column, only its own since it "
            + "started. " + DELETE_MODE + "=soft keeps the sequence in the row instead.")
        .define();
    writes.option(DELETE_MODE, Type.STRING).defaultValue(ChangeSemantics.DEFAULT.deleteMode().configName())
        .oneOf(DeleteMode.class).importance(Importance.MEDIUM).displayName("Delete mode")
        .doc("With " + WRITE_MODE + "=upsert, what a delete does. hard: the row is removed. soft: the row stays "
            + "with __deleted = true and __deleted_at (TIMESTAMP) = the delete's source time (source.ts_ms); a later "
            + "insert or update of the key sets __deleted = false and __deleted_at = null. MergeSink adds both "
            + "columns. Readers filter on NOT __deleted. Not for " + WRITE_MODE + "=append, which keeps every "
            + "change as a row anyway, nor for " + WRITE_MODE + "=history, where a delete closes the key's current version.")
        .define();
    writes.option(SCHEMA_EVOLUTION, Type.STRING).defaultValue(SCHEMA_EVOLUTION_DEFAULT.configName())
        .oneOf(SchemaEvolution.class).importance(Importance.MEDIUM).displayName("Schema evolution")
        .doc("add-columns: columns that appear in records but not in the table are added as nullable columns "
            + "(ALTER TABLE ADD COLUMN in the source just works); columns that disappear are kept and get null; "
            + "nothing is ever dropped or retyped. widen-types: add-columns, and a column whose type grows in the "
            + "source (integer to bigint, float to double, a decimal to more digits, date to timestamp) is widened in "
            + "the table as Delta's type widening does (delta.typeChanges; sets delta.enableTypeWidening and the "
            + "typeWidening feature, which readers must support, e.g. Delta Lake 4.0+ or Delta Kernel 4.4); partition columns "
            + "are not widened. none: the table schema never changes and a record with unknown columns or a wider "
            + "type is an error (dead letter queue with errors.tolerance=all).")
        .define();
    writes.option(PARTITION_FIELDS, Type.LIST).defaultValue("").validator(new PartitionFieldsValidator())
        .importance(Importance.MEDIUM).displayName("Partition fields")
        .doc("The partitioning of new tables (tables that exist keep theirs), comma-separated fields: a column of the "
            + "record (region); for Delta tables a computed partition column name=expression, stored as a Delta generated "
            + "column and computed by MergeSink as Spark computes it: " + GenerationExpression.SUPPORTED + ", timestamps "
            + "taken in UTC (region,order_day=CAST(created_at AS DATE)); for Iceberg tables a partition transform: "
            + PartitionTransform.SUPPORTED + " (region,day(created_at),bucket(16, id)). Empty: unpartitioned tables.")
        .define();
  }
}
