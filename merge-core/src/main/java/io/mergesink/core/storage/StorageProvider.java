package io.mergesink.core.storage;

/**
 * A storage for schemes {@link Storages} does not know, found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.mergesink.core.storage.StorageProvider}). A provider vouches that its
 * {@link Storage#writeIfAbsent} is atomic (exactly one of racing writers wins), which the storage
 * contract test of merge-core shows for the built-in ones. Tests use it to wrap a storage with
 * fault injection under a scheme of their own.
 */
public interface StorageProvider {
  /** Whether this provider serves table roots with {@code scheme} (lower case). */
  boolean serves(String scheme);

  /** The storage for {@code root}. */
  Storage create(String root, StorageOptions options);
}
