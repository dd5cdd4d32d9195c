package io.mergesink.core.storage;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Put-if-absent on a local or POSIX file system: the temporary file is hard linked to the target.
 * {@code link(2)} refuses atomically when the target exists, so of several writers exactly one wins
 * and no reader ever sees a partial file.
 */
final class HardLinkPublish extends TemporaryFilePublish {
  private final Path target;
  private final Path temp;

  private HardLinkPublish(Path target, Path temp) throws IOException {
    super(Files.newOutputStream(temp));
    this.target = target;
    this.temp = temp;
  }

  static PendingFile pending(Path target) throws IOException {
    Files.createDirectories(target.getParent());
    return new HardLinkPublish(target, target.resolveSibling(temporaryName(target.getFileName().toString())));
  }

  /** @return true when this call created {@code target}, false when it existed */
  static boolean writeIfAbsent(Path target, byte[] content) throws IOException {
    try (PendingFile file = pending(target)) {
      file.stream().write(content);
      return file.publish();
    }
  }

  @Override
  boolean publishTemporary() throws IOException {
    try {
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  @Override
  void deleteTemporary() throws IOException {
    Files.deleteIfExists(temp);
  }
}
