package io.mergesink.core.datafiles;

import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes files of a commit that will not happen. Failures only leave orphans, which vacuum removes. */
public final class Cleanup {
  private static final Logger LOG = LoggerFactory.getLogger(Cleanup.class);

  private Cleanup() {}

  public static void deleteQuietly(Storage storage, List<String> paths) {
    for (String path : paths) {
      try {
        storage.delete(path);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not delete abandoned file {} (vacuum will remove it): {}", path, e.toString());
      }
    }
  }
}
