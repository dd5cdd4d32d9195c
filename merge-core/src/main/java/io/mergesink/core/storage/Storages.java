package io.mergesink.core.storage;

import io.mergesink.core.storage.azure.AzureLocation;
import io.mergesink.core.storage.azure.AzureStorage;
import io.mergesink.core.storage.s3.S3Storage;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The one place where a table root's scheme decides its storage (docs/design.md, "Storage"). Only a
 * storage whose put-if-absent of a commit is atomic may hold tables:
 * <ul>
 *   <li>a local path or {@code file:} URI: {@link LocalStorage} (hard link of a complete temporary file);
 *   <li>{@code hdfs://}: {@link HadoopStorage} (rename of a complete temporary file, which HDFS refuses
 *       atomically when the target exists);
 *   <li>{@code s3://}, {@code s3a://}: {@link S3Storage} (PutObject with {@code If-None-Match: *});
 *   <li>{@code abfss://}, {@code wasbs://}: {@link AzureStorage} (Put Blob with {@code If-None-Match: *});
 *   <li>a scheme a {@link StorageProvider} on the class path serves: its storage;
 *   <li>anything else (gs, abfs and wasb, which mean plain HTTP, ...): refused, {@link UnsupportedStorageException}.
 * </ul>
 */
public final class Storages {
  private static final Pattern URI_SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):.*");
  private static final String FILE = "file";
  private static final String HDFS = "hdfs";
  /** Setting it in the Hadoop options routes local paths through Hadoop's local file system (tests, tools). */
  private static final String HADOOP_FILE_IMPL = "fs.file.impl";

  private Storages() {}

  /**
   * The storage for tables under {@code root}.
   *
   * @throws UnsupportedStorageException the scheme has no storage with an atomic put-if-absent
   */
  public static Storage forRoot(String root, StorageOptions options) {
    String scheme = scheme(root);
    if (scheme == null || scheme.equals(FILE)) {
      return options.hadoop().containsKey(HADOOP_FILE_IMPL) ? new HadoopStorage(hadoopConf(options.hadoop())) : new LocalStorage();
    }
    if (scheme.equals(HDFS)) {
      return new HadoopStorage(hadoopConf(options.hadoop()));
    }
    if (scheme.equals("s3") || scheme.equals("s3a")) {
      return S3Storage.create(options.s3());
    }
    if (AzureLocation.serves(scheme)) {
      return AzureStorage.create(root, options.azure());
    }
    return provider(scheme).map(p -> p.create(root, options)).orElseThrow(() -> unsupported(root, scheme));
  }

  /** {@link #forRoot(String, StorageOptions)} with Hadoop settings only (S3 from the SDK's default chains). */
  public static Storage forRoot(String root, Map<String, String> hadoopProperties) {
    return forRoot(root, StorageOptions.hadoop(hadoopProperties));
  }

  /** Why tables cannot live under {@code root}, in one line; empty when a storage serves its scheme. */
  public static Optional<String> unsupportedReason(String root) {
    String scheme = scheme(root);
    if (scheme == null || scheme.equals(FILE) || scheme.equals(HDFS) || isS3(root) || isAzure(root)
        || provider(scheme).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(unsupported(root, scheme).getMessage());
  }

  /** Whether {@code root} is an {@code s3://} or {@code s3a://} URI. */
  public static boolean isS3(String root) {
    String scheme = scheme(root);
    return "s3".equals(scheme) || "s3a".equals(scheme);
  }

  /**
   * Whether {@code root} is on a file system Hadoop reaches by itself: a local path, {@code file:}
   * or {@code hdfs://}, where renaming a file is atomic (what Iceberg's Hadoop catalog commits with).
   */
  public static boolean onHadoopFileSystem(String root) {
    String scheme = scheme(root);
    return scheme == null || scheme.equals(FILE) || scheme.equals(HDFS);
  }

  /** Whether {@code root} is an {@code abfss://} or {@code wasbs://} URI. */
  public static boolean isAzure(String root) {
    return AzureLocation.serves(scheme(root));
  }

  /** The bucket of an {@code s3://} or {@code s3a://} root. */
  public static String s3Bucket(String root) {
    try {
      String host = new URI(root).getHost();
      if (host == null || host.isEmpty()) {
        throw new IllegalArgumentException("S3 table root without a bucket: " + root + " (expected s3://bucket/path)");
      }
      return host;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("S3 table root is not a valid URI: " + root + ": " + e.getMessage(), e);
    }
  }

  /** The lower-case scheme of {@code root}, or null for a plain path (a Windows drive letter is a path). */
  static String scheme(String root) {
    var matcher = URI_SCHEME.matcher(root);
    if (!matcher.matches() || matcher.group(1).length() == 1) {
      return null;
    }
    return matcher.group(1).toLowerCase(Locale.ROOT);
  }

  private static UnsupportedStorageException unsupported(String root, String scheme) {
    if (scheme.equals("abfs") || scheme.equals("wasb")) {
      return new UnsupportedStorageException(root, scheme, scheme + ":// means plain HTTP; use " + scheme + "s:// "
          + "(MergeSink reaches Azure over HTTPS, or an emulator at azure.endpoint)");
    }
    return new UnsupportedStorageException(root, scheme, "MergeSink commits need an atomic put-if-absent, proven "
        + "here only for local and POSIX paths, hdfs://, s3:// / s3a:// and abfss:// / wasbs://; on this file system "
        + "two writers of one table version could both succeed and one commit would be lost");
  }

  private static Optional<StorageProvider> provider(String scheme) {
    for (StorageProvider provider : ServiceLoader.load(StorageProvider.class, Storages.class.getClassLoader())) {
      if (provider.serves(scheme)) {
        return Optional.of(provider);
      }
    }
    return Optional.empty();
  }

  private static Configuration hadoopConf(Map<String, String> properties) {
    Configuration conf = new Configuration();
    properties.forEach(conf::set);
    return conf;
  }
}
