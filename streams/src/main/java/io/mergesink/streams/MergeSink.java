package io.mergesink.streams;

import io.mergesink.ingest.config.IngestConfig;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.config.TableOptions;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The Kafka Streams front end of MergeSink (docs/design.md, "Kafka Streams front end"): a terminal
 * processor that lands a stream's change events in Delta tables, exactly once:
 *
 * <pre>{@code
 * IngestOptions options = IngestOptions.builder("s3a://lake/cdc", "orders-app").build();
 * builder.stream("pg.public.customers", Consumed.with(ConnectSerde.keys(json, props), ConnectSerde.values(json, props)))
 *     .process(MergeSink.toDelta(options));
 * }</pre>
 *
 * Values are Debezium envelopes, flattened rows (Connect {@code Struct}s, {@code SchemaAndValue}s or
 * schemaless maps) or {@link RowChange}s the application built; keys are the tables' primary keys
 * ({@code primary.key.mode=record_key}). The options are the engine's ({@link IngestConfig}), those the
 * connector takes, with their defaults. Every
 * Streams commit first commits the buffered changes to their tables (one commit per table and task);
 * so Streams' {@code commit.interval.ms} (30 s under {@code at_least_once}, 100 ms under
 * {@code exactly_once_v2}) bounds how often tables are committed, and {@code options.commitInterval()}
 * requests commits when it is shorter.
 */
public final class MergeSink {
  private MergeSink() {}

  /**
   * A terminal processor configured with the engine's options ({@link IngestConfig}: {@code table.root},
   * {@code txn.app.id}, {@code table.name.format}, {@code primary.key.mode}, {@code merge.strategy},
   * {@code commit.interval.ms}, {@code buffer.max.records}, ...: the configuration
   * reference), with their defaults. {@code txn.app.id} is required (the connector
   * defaults it to its name). Options of Connect's error handling ({@code errors.tolerance}, the
   * dead letter queue) do not apply: records that cannot be written go to the application's
   * processing exception handler.
   *
   * @throws ConfigException naming the option that is missing or invalid
   */
  public static <K, V> ProcessorSupplier<K, V, Void, Void> toDelta(Map<String, ?> options) {
    if (options.get(TableOptions.TXN_APP_ID) == null) {
      throw new ConfigException(TableOptions.TXN_APP_ID, null, "is required: it names the positions of this sink in its "
          + "tables (e.g. the Streams application.id)");
    }
    return toDelta(new IngestConfig(options).ingestOptions());
  }

  /**
   * A terminal processor writing to the tables of {@code options}, with its own state stores (named
   * {@code mergesink-<txn app id>}, so two sinks in a topology need two txn app ids): the engine's,
   * and a changelogged one that holds the first half of a primary-key change ({@code -held-key-changes}).
   */
  public static <K, V> ProcessorSupplier<K, V, Void, Void> toDelta(IngestOptions options) {
    Objects.requireNonNull(options, "options");
    String storeName = "mergesink-" + options.txnAppId().replaceAll("[^A-Za-z0-9._-]", "_");
    StoreBuilder<DeltaSinkStore> store = new DeltaSinkStoreBuilder(storeName, options);
    String heldStoreName = storeName + "-held-key-changes";
    StoreBuilder<?> heldStore = HeldKeyChanges.storeBuilder(heldStoreName);
    return new ProcessorSupplier<>() {
      @Override
      public Processor<K, V, Void, Void> get() {
        return new DeltaSinkProcessor<>(storeName, heldStoreName, options.commitInterval());
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return Set.of(store, heldStore);
      }
    };
  }
}
