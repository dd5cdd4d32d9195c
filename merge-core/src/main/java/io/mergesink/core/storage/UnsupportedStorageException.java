package io.mergesink.core.storage;

/**
 * A table root whose scheme has no storage with a proven atomic put-if-absent, so tables there
 * could lose commits to racing writers. The message is one line naming the scheme and why.
 */
public final class UnsupportedStorageException extends IllegalArgumentException {
  private final String scheme;

  UnsupportedStorageException(String root, String scheme, String why) {
    super("table root " + root + ": scheme '" + scheme + "' is not supported: " + why);
    this.scheme = scheme;
  }

  public String scheme() {
    return scheme;
  }
}
