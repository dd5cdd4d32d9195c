package io.mergesink.connect.reliability;

import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.StorageProvider;
import io.mergesink.core.storage.s3.S3Storage;
import org.apache.hadoop.conf.Configuration;

/**
 * Serves the fault-injecting table roots of the reliability suite (registered in the test
 * resources' {@code META-INF/services}):
 * <ul>
 *   <li>{@code faulty://}: Hadoop's storage over {@link FaultyFileSystem}, which the
 *       {@code hadoop.fs.faulty.impl} option names. Its commits are published by rename, which on
 *       this local file system replaces an existing target: fine for the single-writer fault
 *       scenarios, never for racing writers (those use local paths or S3);
 *   <li>{@code faulty-s3://bucket/...}: {@link FaultyStorage} over the real S3 storage of
 *       {@code s3://bucket/...}, configured by the connector's S3 options.
 * </ul>
 */
public final class FaultyStorageProvider implements StorageProvider {
  /** The scheme of S3 table roots with faults. */
  static final String FAULTY_S3 = "faulty-s3";

  @Override
  public boolean serves(String scheme) {
    return FaultyFileSystem.SCHEME.equals(scheme) || FAULTY_S3.equals(scheme);
  }

  @Override
  public Storage create(String root, StorageOptions options) {
    if (root.startsWith(FAULTY_S3 + ":")) {
      return new FaultyStorage(S3Storage.create(options.s3()), FAULTY_S3, "s3");
    }
    Configuration conf = new Configuration();
    options.hadoop().forEach(conf::set);
    return new HadoopStorage(conf);
  }
}
