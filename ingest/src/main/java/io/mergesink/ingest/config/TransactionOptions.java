package io.mergesink.ingest.config;

import io.mergesink.ingest.options.TransactionBoundaries;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Whether commits hold whole source transactions, and where a task reads the ends of transactions
 * (docs/transactions.md).
 *
 * @param boundaries {@code transaction.boundaries}
 * @param topic {@code transaction.topic}: the transaction topic; empty: {@code <prefix>.transaction}
 *     for each topic the task reads, the prefix being the topic up to its first dot (Debezium's {@code topic.prefix})
 * @param kafka {@code transaction.kafka.*} without the prefix: the settings of the task's consumer of the
 *     transaction topic (at least {@code bootstrap.servers}, which Connect does not hand to tasks)
 * @param cutInterval {@code cut.interval.ms}: the source time between consistent cuts across tables; zero: no cuts
 */
public record TransactionOptions(TransactionBoundaries boundaries, String topic, Map<String, String> kafka, Duration cutInterval) {
  public static final String GROUP = "Source transactions";
  public static final String BOUNDARIES = "transaction.boundaries";
  public static final TransactionBoundaries BOUNDARIES_DEFAULT = TransactionBoundaries.AUTO;
  public static final String TOPIC = "transaction.topic";
  public static final String KAFKA_PREFIX = "transaction.kafka.";
  /** The suffix of Debezium's transaction topic after {@code topic.prefix}. */
  public static final String TOPIC_SUFFIX = ".transaction";
  public static final String CUT_INTERVAL = "cut.interval.ms";

  public TransactionOptions {
    Objects.requireNonNull(boundaries, "boundaries");
    Objects.requireNonNull(topic, "topic");
    kafka = Map.copyOf(kafka);
    Objects.requireNonNull(cutInterval, "cutInterval");
    if (cutInterval.isNegative()) {
      throw new IllegalArgumentException(CUT_INTERVAL + " is " + cutInterval.toMillis() + ", expected 0 or more");
    }
  }

  /** Without consistent cuts. */
  public TransactionOptions(TransactionBoundaries boundaries, String topic, Map<String, String> kafka) {
    this(boundaries, topic, kafka, Duration.ZERO);
  }

  /**
   * The options as configured: {@code cut.interval.ms} is refused without what cuts need (an engine
   * given its transaction ends by its front end takes options without that check).
   *
   * @throws IllegalArgumentException cuts asked for with {@code transaction.boundaries=off} or without
   *     {@code transaction.kafka.bootstrap.servers}
   */
  public static TransactionOptions configured(TransactionBoundaries boundaries, String topic, Map<String, String> kafka,
      Duration cutInterval) {
    TransactionOptions options = new TransactionOptions(boundaries, topic, kafka, cutInterval);
    if (!cutInterval.isZero() && !options.cuts()) {
      throw new IllegalArgumentException(CUT_INTERVAL + "=" + cutInterval.toMillis() + " needs " + BOUNDARIES + " other than "
          + TransactionBoundaries.OFF.configName() + " and " + KAFKA_PREFIX + ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG
          + " (each task reads the transaction topic to find the cuts)");
    }
    return options;
  }

  /**
   * Whether tasks commit up to consistent cuts across tables and the task holding the transaction topic
   * publishes them: {@code cut.interval.ms} is set and whole transactions are kept with their ends read.
   */
  public boolean cuts() {
    return !cutInterval.isZero() && keepsTransactionsWhole() && readsTransactionTopic();
  }

  /** {@code transaction.boundaries=auto}, no transaction topic consumer. */
  public static TransactionOptions defaults() {
    return new TransactionOptions(BOUNDARIES_DEFAULT, "", Map.of(), Duration.ZERO);
  }

  /** Whether the task can read the transaction topic: {@code transaction.kafka.bootstrap.servers} is set. */
  public boolean readsTransactionTopic() {
    return kafka.containsKey(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  /** Whether commits hold whole transactions (see {@link TransactionBoundaries}). */
  public boolean keepsTransactionsWhole() {
    return boundaries == TransactionBoundaries.ON || boundaries == TransactionBoundaries.AUTO && readsTransactionTopic();
  }

  /** The transaction topic of the changes of {@code topic}. */
  public String transactionTopicOf(String topic) {
    if (!this.topic.isEmpty()) {
      return this.topic;
    }
    int dot = topic.indexOf('.');
    return (dot < 0 ? topic : topic.substring(0, dot)) + TOPIC_SUFFIX;
  }

  static void define(ConfigDef def) {
    ConfigGroup group = new ConfigGroup(def, GROUP);
    group.option(BOUNDARIES, Type.STRING).defaultValue(BOUNDARIES_DEFAULT.configName()).oneOf(TransactionBoundaries.class)
        .importance(Importance.MEDIUM).displayName("Whole source transactions")
        .doc("Whether a table's commits hold whole source transactions (docs/transactions.md); needs Debezium's "
            + "provide.transaction.metadata=true. auto: whenever the changes carry transaction metadata and the task can "
            + "read the transaction topic (" + KAFKA_PREFIX + "bootstrap.servers is set), since without its END events "
            + "the last transaction before a pause waits for the next one. on: also without the transaction topic (a "
            + "transaction is then complete when a later one begins). off: changes are committed as they come.")
        .define();
    group.option(TOPIC, Type.STRING).defaultValue("").importance(Importance.LOW).displayName("Transaction topic")
        .doc("Debezium's transaction topic; empty: <prefix>" + TOPIC_SUFFIX + ", the prefix being each topic's name up to "
            + "its first dot (Debezium's topic.prefix).")
        .define();
    group.option(CUT_INTERVAL, Type.LONG).defaultValue(0L).validator(ConfigDef.Range.atLeast(0)).importance(Importance.MEDIUM)
        .displayName("Consistent cut interval")
        .doc("The source time between consistent cuts across tables (docs/transactions.md, \"Consistent cuts\"); 0: no cuts. "
            + "With cuts, every task commits up to the last transaction ending in each interval of source time and no further, "
            + "and the task that is given the transaction topic (add it to topics) records each cut at which every table "
            + "has a version in the table " + "mergesink_cuts under table.root. Needs the transaction topic's ends ("
            + KAFKA_PREFIX + "bootstrap.servers) and " + BOUNDARIES + " other than off; keep it above commit.interval.ms.")
        .define();
  }
}
