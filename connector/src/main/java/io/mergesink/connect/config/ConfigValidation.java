package io.mergesink.connect.config;

import static io.mergesink.connect.config.MergeSinkConfig.CONNECTOR_NAME;
import static io.mergesink.ingest.config.PassThroughOptions.HADOOP_PREFIX;
import static io.mergesink.ingest.config.PassThroughOptions.TABLE_PROPERTIES_PREFIX;
import static io.mergesink.ingest.config.TableOptions.TABLE_ROOT;
import static io.mergesink.ingest.config.TableOptions.TXN_APP_ID;
import static io.mergesink.ingest.config.WriteOptions.*;

import io.mergesink.core.merge.MergeStrategy;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.storage.azure.AzureContainerCheck;
import io.mergesink.core.storage.azure.AzureOptions;
import io.mergesink.core.storage.s3.S3BucketCheck;
import io.mergesink.core.storage.s3.S3Options;
import io.mergesink.core.table.TableProperties;
import io.mergesink.ingest.config.AzureStoreOptions;
import io.mergesink.ingest.config.CatalogOptions;
import io.mergesink.ingest.config.S3StoreOptions;
import io.mergesink.ingest.config.TableFormatName;
import io.mergesink.ingest.config.TableMergeStrategy;
import io.mergesink.ingest.config.TableOptions;
import io.mergesink.ingest.options.CatalogType;
import io.mergesink.ingest.options.DeleteMode;
import io.mergesink.ingest.options.NamedOption;
import io.mergesink.ingest.options.PrimaryKeyMode;
import io.mergesink.ingest.options.WriteMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Cross-field and environment checks that a single option's validator cannot make. Each finding
 * is attached to the {@link ConfigValue} of the option the user has to change, so the Connect REST
 * {@code validate} endpoint shows it next to that option. A check is skipped while an option it
 * reads already has an error of its own.
 *
 * <ul>
 *   <li>{@code primary.key.mode=record_value} needs {@code primary.key.fields} (upsert mode).
 *   <li>A local {@code table.root} must be absolute and, if it exists, a writable directory;
 *       otherwise its nearest existing ancestor must be a writable directory (so it can be
 *       created).
 *   <li>A {@code table.root} scheme without a storage whose commits are atomic (gs:, abfs:, …) is
 *       refused, naming the scheme and why.
 *   <li>An S3 root ({@code s3://}, {@code s3a://}) is probed with the S3 options ({@link S3BucketCheck}):
 *       endpoint reachable, bucket there, region right, credentials accepted, writes allowed,
 *       conditional writes honoured; each finding goes to the option to change. Access key id and
 *       secret come together; {@code hadoop.fs.s3a.*} settings, which S3 tables do not use, are
 *       named with the option to use instead. {@code hdfs://} roots are checked when the task
 *       opens them.
 *   <li>An Azure root ({@code abfss://}, {@code wasbs://}) is probed likewise with the Azure options
 *       ({@link AzureContainerCheck}): endpoint reachable, container there, credentials accepted,
 *       writes allowed, conditional writes honoured. An account key and a SAS token are not both set.
 *   <li>{@code txn.app.id} must be set when the configuration has no connector {@code name}.
 *   <li>{@code upsert.order.by} applies to keyed tables ({@code write.mode=upsert} or {@code history}),
 *       {@code delete.mode=soft} to {@code write.mode=upsert} only.
 *   <li>{@code catalog.type=hive} needs the metastore's {@code thrift://host:port} in
 *       {@code catalog.uri} and Delta tables ({@code table.format=delta}); the metastore is not
 *       probed (a catalog that is down never fails a commit).
 *   <li>{@code table.properties.*} must be properties a new table of the configured write mode and
 *       strategy can take ({@link TableProperties}); each refusal is reported on its own option name.
 * </ul>
 *
 * {@code write.mode=append} with {@code merge.strategy=copy-on-write} is accepted: in append mode
 * the strategy only decides whether new tables enable deletion vectors.
 */
public final class ConfigValidation {
  private static final Pattern URI_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");
  private static final String FILE_SCHEME = "file";

  private ConfigValidation() {}

  /**
   * Adds error messages for cross-field problems to {@code values}.
   *
   * @param props the connector configuration as submitted
   * @param values the per-option results of {@code ConfigDef.validate(props)}, by option name
   */
  public static void validate(Map<String, String> props, Map<String, ConfigValue> values) {
    checkPrimaryKey(values);
    checkTableRoot(values);
    checkS3(props, values);
    checkAzure(props, values);
    checkCatalog(props, values);
    checkTxnAppId(props, values);
    checkChangeSemantics(values);
  }

  /** {@link #validate(Map, Map)} for the list {@code Config.configValues()} returns. */
  public static void validate(Map<String, String> props, List<ConfigValue> values) {
    Map<String, ConfigValue> byName = new java.util.HashMap<>();
    for (ConfigValue value : values) {
      byName.put(value.name(), value);
    }
    validate(props, byName);
  }

  /**
   * A result with an error for every {@code table.properties.<key>} that a new table could not
   * take (docs/design.md, "Table properties"), named after that option; none while
   * {@code write.mode} or {@code merge.strategy} is itself invalid.
   */
  public static List<ConfigValue> tableProperties(Map<String, String> props) {
    Optional<MergeStrategy> strategy;
    try {
      WriteMode mode = NamedOption.parse(WriteMode.class, WRITE_MODE, props.getOrDefault(WRITE_MODE, WRITE_MODE_DEFAULT.configName()));
      strategy = mode == WriteMode.APPEND ? Optional.empty() : Optional.of(NamedOption.parse(TableMergeStrategy.class, MERGE_STRATEGY,
          props.getOrDefault(MERGE_STRATEGY, MERGE_STRATEGY_DEFAULT.configName())).strategy());
    } catch (IllegalArgumentException e) {
      return List.of();
    }
    Map<String, String> properties = new java.util.TreeMap<>();
    props.forEach((key, value) -> {
      if (key.startsWith(TABLE_PROPERTIES_PREFIX) && value != null) {
        properties.put(key.substring(TABLE_PROPERTIES_PREFIX.length()), value);
      }
    });
    List<ConfigValue> problems = new java.util.ArrayList<>();
    for (TableProperties.Refusal refusal : TableProperties.refusals(properties, strategy)) {
      String option = TABLE_PROPERTIES_PREFIX + refusal.key();
      problems.add(new ConfigValue(option, refusal.value(), List.of(), List.of(option + "=" + refusal.value()
          + " cannot be honoured for tables written with " + strategyName(strategy) + ": " + refusal.reason())));
    }
    return problems;
  }

  private static String strategyName(Optional<MergeStrategy> strategy) {
    return strategy.map(keyed -> MERGE_STRATEGY + "=" + keyed.configName())
        .orElse(WRITE_MODE + "=" + WriteMode.APPEND.configName());
  }

  private static void checkChangeSemantics(Map<String, ConfigValue> values) {
    if (!valid(values, WRITE_MODE, UPSERT_ORDER_BY, DELETE_MODE)) {
      return;
    }
    String mode = String.valueOf(values.get(WRITE_MODE).value()).trim().toLowerCase(Locale.ROOT);
    if (mode.equals(WriteMode.UPSERT.configName())) {
      return;
    }
    if (mode.equals(WriteMode.APPEND.configName()) && !"none".equals(String.valueOf(values.get(UPSERT_ORDER_BY).value()).trim())) {
      values.get(UPSERT_ORDER_BY).addErrorMessage(UPSERT_ORDER_BY + " orders the changes of a key in a keyed table ("
          + WRITE_MODE + "=upsert or history); " + WRITE_MODE + "=" + mode + " keeps changes as rows of their own (set it to none,"
          + " or use " + WRITE_MODE + "=upsert or history)");
    }
    if (!DeleteMode.HARD.configName().equalsIgnoreCase(String.valueOf(values.get(DELETE_MODE).value()).trim())) {
      values.get(DELETE_MODE).addErrorMessage(DELETE_MODE + "=soft marks deleted rows of a table with one row per key; "
          + WRITE_MODE + "=" + mode + " records a delete in its own way (set it to hard, or use " + WRITE_MODE + "=upsert)");
    }
  }

  private static void checkPrimaryKey(Map<String, ConfigValue> values) {
    if (!valid(values, PRIMARY_KEY_MODE, PRIMARY_KEY_FIELDS, WRITE_MODE)) {
      return;
    }
    String mode = String.valueOf(values.get(PRIMARY_KEY_MODE).value());
    String writeMode = String.valueOf(values.get(WRITE_MODE).value());
    Object fields = values.get(PRIMARY_KEY_FIELDS).value();
    boolean noFields = fields == null || (fields instanceof List<?> list && list.isEmpty());
    if (PrimaryKeyMode.RECORD_VALUE.configName().equalsIgnoreCase(mode)
        && !WriteMode.APPEND.configName().equalsIgnoreCase(writeMode) && noFields) {
      values.get(PRIMARY_KEY_FIELDS).addErrorMessage(PRIMARY_KEY_FIELDS + " must name the key columns of the record "
          + "value when " + PRIMARY_KEY_MODE + "=" + PrimaryKeyMode.RECORD_VALUE.configName() + ", e.g. id or "
          + "tenant_id,id");
    }
  }

  private static void checkTableRoot(Map<String, ConfigValue> values) {
    if (!valid(values, TABLE_ROOT)) {
      return;
    }
    Object root = values.get(TABLE_ROOT).value();
    if (root != null) {
      tableRootProblem(root.toString().trim()).ifPresent(values.get(TABLE_ROOT)::addErrorMessage);
    }
  }

  /** What is wrong with {@code root} as a table root, if anything can be seen without credentials. */
  static Optional<String> tableRootProblem(String root) {
    Optional<String> unsupported = Storages.unsupportedReason(root);
    if (unsupported.isPresent()) {
      return unsupported;
    }
    Path path;
    try {
      if (URI_SCHEME.matcher(root).matches()) {
        URI uri = new URI(root);
        if (!FILE_SCHEME.equals(uri.getScheme().toLowerCase(Locale.ROOT))) {
          return Optional.empty();
        }
        path = Path.of(uri);
      } else {
        path = Path.of(root);
      }
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.of(TABLE_ROOT + " '" + root + "' is not a valid path or URI: " + e.getMessage());
    }
    if (!path.isAbsolute()) {
      return Optional.of(TABLE_ROOT + " '" + root + "' is a relative path; use an absolute path (every worker "
          + "resolves relative paths against its own working directory)");
    }
    if (Files.exists(path)) {
      if (!Files.isDirectory(path)) {
        return Optional.of(TABLE_ROOT + " '" + root + "' exists and is not a directory");
      }
      if (!Files.isWritable(path)) {
        return Optional.of(TABLE_ROOT + " '" + root + "' is not writable by the Connect worker (user "
            + System.getProperty("user.name") + ")");
      }
      return Optional.empty();
    }
    Path ancestor = path.getParent();
    while (ancestor != null && !Files.exists(ancestor)) {
      ancestor = ancestor.getParent();
    }
    if (ancestor == null) {
      return Optional.of(TABLE_ROOT + " '" + root + "' cannot be created: no ancestor directory exists");
    }
    if (!Files.isDirectory(ancestor)) {
      return Optional.of(TABLE_ROOT + " '" + root + "' cannot be created: '" + ancestor + "' is not a directory");
    }
    if (!Files.isWritable(ancestor)) {
      return Optional.of(TABLE_ROOT + " '" + root + "' does not exist and cannot be created: '" + ancestor
          + "' is not writable by the Connect worker (user " + System.getProperty("user.name") + ")");
    }
    return Optional.empty();
  }

  /** S3 hadoop settings of the old Hadoop route and the option that replaces each. */
  private static final Map<String, String> S3A_REPLACEMENTS = Map.of(
      "fs.s3a.endpoint", S3StoreOptions.ENDPOINT,
      "fs.s3a.endpoint.region", S3StoreOptions.REGION,
      "fs.s3a.region", S3StoreOptions.REGION,
      "fs.s3a.path.style.access", S3StoreOptions.PATH_STYLE,
      "fs.s3a.access.key", S3StoreOptions.ACCESS_KEY_ID,
      "fs.s3a.secret.key", S3StoreOptions.SECRET_ACCESS_KEY);

  private static void checkS3(Map<String, String> props, Map<String, ConfigValue> values) {
    if (!valid(values, TABLE_ROOT) || values.get(TABLE_ROOT).value() == null
        || !Storages.isS3(values.get(TABLE_ROOT).value().toString().trim())) {
      return;
    }
    String root = values.get(TABLE_ROOT).value().toString().trim();
    for (Map.Entry<String, String> s3a : S3A_REPLACEMENTS.entrySet()) {
      if (props.containsKey(HADOOP_PREFIX + s3a.getKey())) {
        values.get(TABLE_ROOT).addErrorMessage(HADOOP_PREFIX + s3a.getKey() + " is not used: S3 tables are written with "
            + "the AWS SDK, not Hadoop's S3A; set " + s3a.getValue() + " instead");
      }
    }
    String keyId = props.getOrDefault(S3StoreOptions.ACCESS_KEY_ID, "").trim();
    String secret = props.getOrDefault(S3StoreOptions.SECRET_ACCESS_KEY, "").trim();
    if (keyId.isEmpty() != secret.isEmpty()) {
      String missing = keyId.isEmpty() ? S3StoreOptions.ACCESS_KEY_ID : S3StoreOptions.SECRET_ACCESS_KEY;
      String given = keyId.isEmpty() ? S3StoreOptions.SECRET_ACCESS_KEY : S3StoreOptions.ACCESS_KEY_ID;
      values.get(missing).addErrorMessage(missing + " must be set with " + given + " (or neither, for the default "
          + "credential chain)");
      return;
    }
    if (!valid(values, S3StoreOptions.REGION, S3StoreOptions.ENDPOINT, S3StoreOptions.PATH_STYLE, S3StoreOptions.ACCESS_KEY_ID,
        S3StoreOptions.SECRET_ACCESS_KEY, S3StoreOptions.PART_SIZE, S3StoreOptions.REQUEST_TIMEOUT_MS, S3StoreOptions.RETRIES)
        || !values.get(TABLE_ROOT).errorMessages().isEmpty()) {
      return;
    }
    S3Options options;
    try {
      options = new MergeSinkConfig(props).storageOptions().s3();
    } catch (ConfigException e) {
      return; // another option's own error, reported next to it
    }
    S3BucketCheck.problem(root, options).ifPresent(problem -> values.get(switch (problem.subject()) {
      case ROOT -> TABLE_ROOT;
      case REGION -> S3StoreOptions.REGION;
      case ENDPOINT -> S3StoreOptions.ENDPOINT;
      case CREDENTIALS -> S3StoreOptions.ACCESS_KEY_ID;
    }).addErrorMessage(problem.message()));
  }

  private static void checkAzure(Map<String, String> props, Map<String, ConfigValue> values) {
    if (!valid(values, TABLE_ROOT) || values.get(TABLE_ROOT).value() == null
        || !Storages.isAzure(values.get(TABLE_ROOT).value().toString().trim())) {
      return;
    }
    String root = values.get(TABLE_ROOT).value().toString().trim();
    if (!props.getOrDefault(AzureStoreOptions.ACCOUNT_KEY, "").isBlank()
        && !props.getOrDefault(AzureStoreOptions.SAS_TOKEN, "").isBlank()) {
      values.get(AzureStoreOptions.SAS_TOKEN).addErrorMessage("set " + AzureStoreOptions.ACCOUNT_KEY + " or "
          + AzureStoreOptions.SAS_TOKEN + ", not both");
      return;
    }
    if (!valid(values, AzureStoreOptions.ACCOUNT_KEY, AzureStoreOptions.SAS_TOKEN, AzureStoreOptions.ENDPOINT,
        AzureStoreOptions.BLOCK_SIZE, AzureStoreOptions.REQUEST_TIMEOUT_MS, AzureStoreOptions.RETRIES)
        || !values.get(TABLE_ROOT).errorMessages().isEmpty()) {
      return;
    }
    AzureOptions options;
    try {
      options = new MergeSinkConfig(props).storageOptions().azure();
    } catch (ConfigException e) {
      return; // another option's own error, reported next to it
    }
    AzureContainerCheck.problem(root, options).ifPresent(problem -> values.get(switch (problem.subject()) {
      case ROOT -> TABLE_ROOT;
      case ENDPOINT -> AzureStoreOptions.ENDPOINT;
      case CREDENTIALS -> options.credentials() instanceof AzureOptions.SasToken ? AzureStoreOptions.SAS_TOKEN
          : AzureStoreOptions.ACCOUNT_KEY;
    }).addErrorMessage(problem.message()));
  }

  private static void checkTxnAppId(Map<String, String> props, Map<String, ConfigValue> values) {
    if (!valid(values, TXN_APP_ID)) {
      return;
    }
    Object appId = values.get(TXN_APP_ID).value();
    String name = props.get(CONNECTOR_NAME);
    if ((appId == null || appId.toString().isBlank()) && (name == null || name.isBlank())) {
      values.get(TXN_APP_ID).addErrorMessage(TXN_APP_ID + " must be set when the configuration has no connector "
          + "'name' to default to");
    }
  }

  /** {@code catalog.type=hive} takes the metastore's {@code thrift://host:port} and registers Delta tables only. */
  private static void checkCatalog(Map<String, String> props, Map<String, ConfigValue> values) {
    if (!valid(values, CatalogOptions.TYPE, CatalogOptions.URI_OPTION, TableOptions.TABLE_FORMAT)) {
      return;
    }
    CatalogType type = NamedOption.parse(CatalogType.class, CatalogOptions.TYPE,
        props.getOrDefault(CatalogOptions.TYPE, CatalogType.NONE.configName()));
    if (type == CatalogType.NONE) {
      return;
    }
    String format = props.getOrDefault(TableOptions.TABLE_FORMAT, TableOptions.TABLE_FORMAT_DEFAULT.configName());
    if (NamedOption.parse(TableFormatName.class, TableOptions.TABLE_FORMAT, format) != TableFormatName.DELTA) {
      values.get(CatalogOptions.TYPE).addErrorMessage(CatalogOptions.TYPE + " registers Delta tables; Iceberg tables live in"
          + " their own catalog (iceberg.catalog.*)");
    }
    String uri = props.getOrDefault(CatalogOptions.URI_OPTION, "").trim();
    try {
      CatalogOptions.hive(new URI(uri));
    } catch (URISyntaxException | IllegalArgumentException e) {
      values.get(CatalogOptions.URI_OPTION).addErrorMessage(CatalogOptions.URI_OPTION + " must be the Hive Metastore's"
          + " thrift://host:port with " + CatalogOptions.TYPE + "=hive, got '" + uri + "'");
    }
  }

  private static boolean valid(Map<String, ConfigValue> values, String... names) {
    for (String name : names) {
      ConfigValue value = values.get(name);
      if (value == null || !value.errorMessages().isEmpty()) {
        return false;
      }
    }
    return true;
  }
}
