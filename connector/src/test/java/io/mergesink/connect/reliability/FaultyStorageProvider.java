package io.mergesink.connect.reliability;

import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.StorageProvider;
import org.apache.hadoop.conf.Configuration;

/**
 * Serves {@code faulty://} table roots (registered in the test resources' {@code META-INF/services}):
 * Hadoop's storage over {@link FaultyFileSystem}, which the {@code hadoop.fs.faulty.impl} option
 * names. Its commits are published by rename, which on this local file system replaces an existing
 * target: fine for the single-writer fault scenarios, never for racing writers (those use local
 * paths or S3).
 */
public final class FaultyStorageProvider implements StorageProvider {
  @Override
  public boolean serves(String scheme) {
    return FaultyFileSystem.SCHEME.equals(scheme);
  }

  @Override
  public Storage create(String root, StorageOptions options) {
    Configuration conf = new Configuration();
    options.hadoop().forEach(conf::set);
    return new HadoopStorage(conf);
  }
}
