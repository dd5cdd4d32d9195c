package io.mergesink.core.storage;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Put-if-absent on a local or POSIX file system: the whole content goes to a unique temporary file
 * beside the target ({@code .<name>.<uuid>.tmp}, a name no reader looks at), which is then hard
 * linked to the target. {@code link(2)} refuses atomically when the target exists, so of several
 * writers exactly one wins and no reader ever sees a partial file.
 */
final class HardLinkPublish {
  private HardLinkPublish() {}

  /** @return true when this call created {@code target}, false when it existed */
  static boolean writeIfAbsent(Path target, byte[] content) throws IOException {
    Files.createDirectories(target.getParent());
    Path temp = target.resolveSibling(temporaryName(target.getFileName().toString()));
    Files.write(temp, content);
    try {
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The name a file is written under before it is published as {@code name}. */
  static String temporaryName(String name) {
    return "." + name + "." + UUID.randomUUID() + ".tmp";
  }
}
