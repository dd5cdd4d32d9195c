package io.mergesink.connect.reliability;

import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.StorageProvider;
import io.mergesink.core.storage.azure.AzureStorage;
import io.mergesink.core.storage.s3.S3Storage;

/**
 * Serves the fault-injecting table roots of the reliability suite (registered in the test
 * resources' {@code META-INF/services}) with {@link FaultyStorage}:
 * <ul>
 *   <li>{@code faulty:///dir/...}: over the local storage of {@code /dir/...}, which publishes
 *       commits and checkpoints with a hard link, put-if-absent even among racing writers;
 *   <li>{@code faulty-s3://bucket/...}: over the real S3 storage of {@code s3://bucket/...},
 *       configured by the connector's S3 options;
 *   <li>{@code faulty-azure://container@account.blob.core.windows.net/...}: over the real Azure
 *       storage of {@code wasbs://container@...}, configured by the connector's Azure options.
 * </ul>
 */
public final class FaultyStorageProvider implements StorageProvider {
  @Override
  public boolean serves(String scheme) {
    return FaultyStorage.FAULTY_LOCAL.equals(scheme) || FaultyStorage.FAULTY_S3.equals(scheme)
        || FaultyStorage.FAULTY_AZURE.equals(scheme);
  }

  @Override
  public Storage create(String root, StorageOptions options) {
    if (root.startsWith(FaultyStorage.FAULTY_S3 + ":")) {
      return FaultyStorage.onS3(S3Storage.create(options.s3()));
    }
    if (root.startsWith(FaultyStorage.FAULTY_AZURE + ":")) {
      return FaultyStorage.onAzure(AzureStorage.create("wasbs" + root.substring(FaultyStorage.FAULTY_AZURE.length()), options.azure()));
    }
    return FaultyStorage.onLocalDisk();
  }
}
