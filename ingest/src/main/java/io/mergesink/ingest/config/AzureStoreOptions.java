package io.mergesink.ingest.config;

import io.mergesink.core.storage.azure.AzureOptions;
import java.net.URI;
import java.time.Duration;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The options of tables on Azure Blob Storage and ADLS Gen2
 * ({@code table.root=abfss://container@account.dfs.core.windows.net/path} or {@code wasbs://}), and
 * their conversion to merge-core's {@link AzureOptions}. Credentials: the account key, or a SAS
 * token, or neither for the default Azure credential chain (environment, workload identity,
 * managed identity, Azure CLI).
 */
public final class AzureStoreOptions {
  public static final String GROUP = "Azure";
  public static final String ACCOUNT_KEY = "azure.account.key";
  public static final String SAS_TOKEN = "azure.sas.token";
  public static final String ENDPOINT = "azure.endpoint";
  public static final String BLOCK_SIZE = "azure.block.size";
  public static final String REQUEST_TIMEOUT_MS = "azure.request.timeout.ms";
  public static final String RETRIES = "azure.retries";

  private AzureStoreOptions() {}

  static void define(ConfigDef def) {
    ConfigGroup azure = new ConfigGroup(def, GROUP);
    azure.option(ACCOUNT_KEY, Type.PASSWORD).defaultValue("").importance(Importance.HIGH)
        .displayName("Azure storage account key")
        .doc("Access key of the storage account of " + TableOptions.TABLE_ROOT + " (Shared Key). Set this, or "
            + SAS_TOKEN + ", or neither for the default Azure credential chain (AZURE_CLIENT_ID/AZURE_TENANT_ID/"
            + "AZURE_CLIENT_SECRET, workload identity, managed identity, Azure CLI), whose identity needs the "
            + "Storage Blob Data Contributor role. Never logged; use a Connect config provider to keep it out of "
            + "the connector configuration.")
        .define();
    azure.option(SAS_TOKEN, Type.PASSWORD).defaultValue("").importance(Importance.HIGH).displayName("Azure SAS token")
        .doc("Shared access signature for the account or the container, with read, add, create, write, delete "
            + "and list permissions; instead of " + ACCOUNT_KEY + ". Never logged.")
        .define();
    azure.option(ENDPOINT, Type.STRING).defaultValue("").validator(new HttpUrlValidator("http://azurite:10000/devstoreaccount1"))
        .importance(Importance.MEDIUM).width(Width.LONG).displayName("Azure Blob endpoint")
        .doc("Blob service URL including the account, for an emulator or a private endpoint, e.g. "
            + "http://azurite:10000/devstoreaccount1. Empty: https://<account>.blob.<suffix> from the table root's "
            + "host (an abfss:// root's dfs host is reached at its blob host: commits use the Blob API's "
            + "conditional Put Blob).")
        .define();
    azure.option(BLOCK_SIZE, Type.INT).defaultValue(AzureOptions.DEFAULT_BLOCK_SIZE_BYTES)
        .validator(Range.between(AzureOptions.MIN_BLOCK_SIZE_BYTES, AzureOptions.MAX_BLOCK_SIZE_BYTES))
        .importance(Importance.LOW).displayName("Azure block size")
        .doc("Data files larger than this are uploaded as staged blocks of this many bytes and committed with one "
            + "block list; each file being written holds one block in memory.")
        .define();
    azure.option(REQUEST_TIMEOUT_MS, Type.LONG).defaultValue(AzureOptions.DEFAULT_REQUEST_TIMEOUT.toMillis())
        .validator(Range.atLeast(1_000)).importance(Importance.LOW).displayName("Azure request timeout (ms)")
        .doc("Longest time one attempt of an Azure request may take, in milliseconds (whole seconds are used).")
        .define();
    azure.option(RETRIES, Type.INT).defaultValue(AzureOptions.DEFAULT_MAX_RETRIES).validator(Range.between(0, 20))
        .importance(Importance.LOW).displayName("Azure retries")
        .doc("Retries of an Azure request that failed with throttling, a server error or an I/O error, with "
            + "exponential backoff. A request still failing makes the commit fail; the task retries it and keeps its "
            + "buffer.")
        .define();
  }

  /**
   * The Azure options of {@code config}.
   *
   * @throws ConfigException both an account key and a SAS token are set
   */
  static AzureOptions options(AbstractConfig config) {
    AzureOptions options = AzureOptions.defaults()
        .withBlockSize(config.getInt(BLOCK_SIZE))
        .withRequests(Duration.ofMillis(config.getLong(REQUEST_TIMEOUT_MS)), config.getInt(RETRIES));
    String endpoint = config.getString(ENDPOINT).trim();
    if (!endpoint.isEmpty()) {
      options = options.withEndpoint(URI.create(endpoint));
    }
    String key = secret(config, ACCOUNT_KEY);
    String sas = secret(config, SAS_TOKEN);
    if (!key.isEmpty() && !sas.isEmpty()) {
      throw new ConfigException(ACCOUNT_KEY, "(hidden)", "set " + ACCOUNT_KEY + " or " + SAS_TOKEN + ", not both");
    }
    if (!key.isEmpty()) {
      options = options.withCredentials(new AzureOptions.AccountKey(key));
    } else if (!sas.isEmpty()) {
      options = options.withCredentials(new AzureOptions.SasToken(sas));
    }
    return options;
  }

  private static String secret(AbstractConfig config, String name) {
    Password value = config.getPassword(name);
    return value == null ? "" : value.value().trim();
  }
}
