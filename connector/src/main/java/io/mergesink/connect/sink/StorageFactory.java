package io.mergesink.connect.sink;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import org.apache.hadoop.conf.Configuration;

/** The table storage a task writes through: Hadoop's file systems, configured by the {@code hadoop.*} options. */
final class StorageFactory {
  private StorageFactory() {}

  static Storage create(MergeSinkConfig config) {
    Configuration hadoop = new Configuration();
    config.hadoopProperties().forEach(hadoop::set);
    return new HadoopStorage(hadoop);
  }
}
