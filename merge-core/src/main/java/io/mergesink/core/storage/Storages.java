package io.mergesink.core.storage;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** The storage for a table root: {@link LocalStorage} for local paths, {@link HadoopStorage} for every other scheme. */
public final class Storages {
  private Storages() {}

  /**
   * @param hadoopProperties Hadoop settings (credentials, endpoints, {@code fs.<scheme>.impl});
   *     setting {@code fs.file.impl} routes local paths through Hadoop too
   */
  public static Storage forRoot(String root, Map<String, String> hadoopProperties) {
    if (LocalStorage.isLocal(root) && !hadoopProperties.containsKey("fs.file.impl")) {
      return new LocalStorage();
    }
    Configuration conf = new Configuration();
    hadoopProperties.forEach(conf::set);
    return new HadoopStorage(conf);
  }
}
