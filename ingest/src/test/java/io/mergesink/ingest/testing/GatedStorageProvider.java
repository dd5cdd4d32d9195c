package io.mergesink.ingest.testing;

import io.mergesink.core.storage.Storage;
import io.mergesink.core.storage.StorageOptions;
import io.mergesink.core.storage.StorageProvider;

/** Serves {@code gated://} roots (registered in the test resources' {@code META-INF/services}). */
public final class GatedStorageProvider implements StorageProvider {
  @Override
  public boolean serves(String scheme) {
    return GatedStorage.SCHEME.equals(scheme);
  }

  @Override
  public Storage create(String root, StorageOptions options) {
    return new GatedStorage();
  }
}
