package io.mergesink.connect.reliability;

import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.StorageProvider;
import io.mergesink.core.storage.s3.S3Storage;

/**
 * Serves the fault-injecting table roots of the reliability suite (registered in the test
 * resources' {@code META-INF/services}) with {@link FaultyStorage}:
 * <ul>
 *   <li>{@code faulty:///dir/...}: over the local storage of {@code /dir/...}, which publishes
 *       commits and checkpoints with a hard link, put-if-absent even among racing writers;
 *   <li>{@code faulty-s3://bucket/...}: over the real S3 storage of {@code s3://bucket/...},
 *       configured by the connector's S3 options.
 * </ul>
 */
public final class FaultyStorageProvider implements StorageProvider {
  @Override
  public boolean serves(String scheme) {
    return FaultyStorage.FAULTY_LOCAL.equals(scheme) || FaultyStorage.FAULTY_S3.equals(scheme);
  }

  @Override
  public Storage create(String root, StorageOptions options) {
    if (root.startsWith(FaultyStorage.FAULTY_S3 + ":")) {
      return FaultyStorage.onS3(S3Storage.create(options.s3()));
    }
    return FaultyStorage.onLocalDisk();
  }
}
