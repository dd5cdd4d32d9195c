package io.mergesink.core.storage.azure;

import java.util.Locale;

/**
 * A path on Azure Blob Storage, {@code abfss://container@account.dfs.core.windows.net/name} or
 * {@code wasbs://container@account.blob.core.windows.net/name}, split into its parts. Both schemes
 * address the same blobs: {@code abfss} names the account's DFS endpoint (ADLS Gen2), {@code wasbs}
 * its Blob endpoint; MergeSink talks to the Blob endpoint for both (Put Blob with
 * {@code If-None-Match: *} has no DFS equivalent). The blob name is taken as written (no %xx
 * decoding), as local paths are.
 *
 * <p>{@code abfs://} and {@code wasb://} are refused: in Hadoop they mean plain HTTP, and MergeSink
 * reaches an account over HTTPS unless an endpoint is configured (an emulator).
 *
 * @param scheme {@code abfss} or {@code wasbs}, kept so that listed paths look like the paths asked for
 * @param host the host as written, e.g. {@code account.dfs.core.windows.net}
 * @param name the blob name, or a prefix of names; empty for the container's top
 */
public record AzureLocation(String scheme, String container, String host, String name) {
  static final String ABFSS = "abfss";
  static final String WASBS = "wasbs";
  private static final String DFS_LABEL = ".dfs.";
  private static final String BLOB_LABEL = ".blob.";

  /** Whether {@code scheme} (any case) is one this storage serves. */
  public static boolean serves(String scheme) {
    String lower = scheme == null ? "" : scheme.toLowerCase(Locale.ROOT);
    return lower.equals(ABFSS) || lower.equals(WASBS);
  }

  /** @throws IllegalArgumentException {@code path} is not an abfss:// or wasbs:// URI with a container and an account */
  public static AzureLocation parse(String path) {
    int colon = path.indexOf("://");
    String scheme = colon < 0 ? "" : path.substring(0, colon).toLowerCase(Locale.ROOT);
    if (scheme.equals("abfs") || scheme.equals("wasb")) {
      throw new IllegalArgumentException(scheme + ":// means plain HTTP; use " + scheme + "s:// (" + path
          + "): MergeSink reaches Azure over HTTPS, or an emulator at the configured endpoint");
    }
    if (!serves(scheme)) {
      throw new IllegalArgumentException("not an Azure Blob path (abfss://container@account.dfs.core.windows.net/path "
          + "or wasbs://container@account.blob.core.windows.net/path): " + path);
    }
    String rest = path.substring(colon + 3);
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    int at = authority.indexOf('@');
    if (at <= 0 || at == authority.length() - 1 || authority.indexOf('.', at) < 0) {
      throw new IllegalArgumentException("Azure path without container@account.<endpoint suffix>: " + path
          + " (expected " + scheme + "://container@account." + (scheme.equals(ABFSS) ? "dfs" : "blob")
          + ".core.windows.net/path)");
    }
    String name = slash < 0 ? "" : rest.substring(slash + 1);
    while (name.startsWith("/")) {
      name = name.substring(1);
    }
    return new AzureLocation(scheme, authority.substring(0, at), authority.substring(at + 1).toLowerCase(Locale.ROOT), name);
  }

  /** The storage account: the first label of the host. */
  public String account() {
    return host.substring(0, host.indexOf('.'));
  }

  /**
   * The account's Blob service URL, {@code https://account.blob.<suffix>}: the DFS host of an
   * {@code abfss} path with its {@code dfs} label replaced (sovereign clouds keep their suffix).
   */
  public String blobEndpoint() {
    String blobHost = host.contains(DFS_LABEL) ? host.replaceFirst("\\.dfs\\.", BLOB_LABEL) : host;
    return "https://" + blobHost;
  }

  /** The name as a directory prefix: ends with {@code /}, or empty for the container's top. */
  String directoryPrefix() {
    return name.isEmpty() || name.endsWith("/") ? name : name + "/";
  }

  /** The path of another blob in the same container, in this location's scheme and host. */
  String pathOf(String otherName) {
    return scheme + "://" + container + "@" + host + "/" + otherName;
  }


  @Override
  public String toString() {
    return pathOf(name);
  }
}
