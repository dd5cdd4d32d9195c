package io.mergesink.core.log;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the files in {@code _delta_log} (PROTOCOL.md, "Delta Log Entries" and "Checkpoints") and
 * the mapping between the URI-encoded paths of {@code add}/{@code remove} actions and storage paths.
 *
 * <p>Table roots are storage paths as {@link io.mergesink.core.storage.Storage} takes them; a
 * trailing slash is ignored.
 */
public final class LogPaths {
  public static final String LOG_DIR = "_delta_log";
  public static final String LAST_CHECKPOINT = "_last_checkpoint";
  /** Versions in file names are zero-padded to this many decimal digits. */
  public static final int VERSION_DIGITS = 20;
  /** Part numbers of multi-part checkpoints are zero-padded to this many decimal digits. */
  public static final int PART_DIGITS = 10;

  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern CHECKPOINT =
      Pattern.compile("(\\d{20})\\.checkpoint(?:\\.(\\d{10})\\.(\\d{10}))?\\.parquet");
  /** A UUID-named V2 checkpoint: {@code <version>.checkpoint.<uuid>.json} or {@code .parquet}. */
  private static final Pattern UUID_CHECKPOINT =
      Pattern.compile("(\\d{20})\\.checkpoint\\.[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\.(?:json|parquet)");
  /** The directory of V2 checkpoints' sidecar files, within {@code _delta_log}. */
  public static final String SIDECAR_DIR = "_sidecars";
  private static final int RADIX_HEX = 16;
  private static final String HEX_DIGITS = "0123456789ABCDEF";
  /** Characters left as they are when encoding a path: RFC 3986 unreserved plus '/'. */
  private static final String UNESCAPED = "-._~/";

  private LogPaths() {}

  /** One file of a checkpoint: {@code part} of {@code parts} (1 of 1 for a classic single file). */
  public record CheckpointName(long version, int part, int parts) {}

  public static String logDir(String root) {
    return stripSlash(root) + "/" + LOG_DIR;
  }

  /** {@code <root>/_delta_log/<20-digit version>.json}. */
  public static String commitFile(String root, long version) {
    return logDir(root) + "/" + commitFileName(version);
  }

  public static String commitFileName(long version) {
    return paddedVersion(version) + ".json";
  }

  /** {@code <root>/_delta_log/<20-digit version>.checkpoint.parquet}, a classic single-file checkpoint. */
  public static String checkpointFile(String root, long version) {
    return logDir(root) + "/" + paddedVersion(version) + ".checkpoint.parquet";
  }

  /** {@code <root>/_delta_log/<20-digit version>.checkpoint.<uuid>.parquet}, a UUID-named V2 checkpoint. */
  public static String uuidCheckpointFile(String root, long version, java.util.UUID uuid) {
    return logDir(root) + "/" + paddedVersion(version) + ".checkpoint." + uuid + ".parquet";
  }

  /**
   * {@code <root>/_delta_log/<20-digit version>.checkpoint.<part>.<parts>.parquet}, one file of a
   * multi-part checkpoint (part and count padded to {@link #PART_DIGITS} digits).
   */
  public static String checkpointPartFile(String root, long version, int part, int parts) {
    if (part < 1 || part > parts) {
      throw new IllegalArgumentException("a checkpoint part is between 1 and its part count " + parts + ", found " + part);
    }
    return logDir(root) + "/" + paddedVersion(version) + ".checkpoint." + String.format("%0" + PART_DIGITS + "d", part) + "."
        + String.format("%0" + PART_DIGITS + "d", parts) + ".parquet";
  }

  /**
   * The storage path of a sidecar file a V2 checkpoint names: a relative (URI-encoded) path lies
   * in {@code _delta_log/_sidecars/}, an absolute one is taken as it is.
   */
  public static String sidecarFile(String root, String sidecarPath) {
    return resolve(logDir(root) + "/" + SIDECAR_DIR, sidecarPath);
  }

  /** The storage path of a checkpoint file named in the log directory ({@code _last_checkpoint}'s V2 path). */
  public static String logFile(String root, String fileName) {
    return logDir(root) + "/" + fileName;
  }

  public static String lastCheckpointFile(String root) {
    return logDir(root) + "/" + LAST_CHECKPOINT;
  }

  /** The version zero-padded to {@link #VERSION_DIGITS} digits: the name prefix listings start from. */
  public static String paddedVersion(long version) {
    if (version < 0) {
      throw new IllegalArgumentException("a Delta version is >= 0, found " + version);
    }
    return String.format("%0" + VERSION_DIGITS + "d", version);
  }

  /** The version of a commit file name ({@code 00000000000000000007.json} → 7), empty for other names. */
  public static OptionalLong commitVersion(String fileName) {
    Matcher m = COMMIT.matcher(fileName);
    return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
  }

  /**
   * The version of a checkpoint file name: classic single-file ({@code V.checkpoint.parquet}),
   * multi-part ({@code V.checkpoint.0000000001.0000000002.parquet}) or UUID-named V2
   * ({@code V.checkpoint.<uuid>.json|parquet}); empty for other names.
   */
  public static OptionalLong checkpointVersion(String fileName) {
    return checkpointName(fileName).map(c -> OptionalLong.of(c.version())).orElse(OptionalLong.empty());
  }

  /**
   * The version and part of a checkpoint file name (a single-file or UUID-named checkpoint is part
   * 1 of 1), empty for other names.
   */
  public static Optional<CheckpointName> checkpointName(String fileName) {
    Matcher uuid = UUID_CHECKPOINT.matcher(fileName);
    if (uuid.matches()) {
      return Optional.of(new CheckpointName(Long.parseLong(uuid.group(1)), 1, 1));
    }
    Matcher m = CHECKPOINT.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    long version = Long.parseLong(m.group(1));
    if (m.group(2) == null) {
      return Optional.of(new CheckpointName(version, 1, 1));
    }
    int part = Integer.parseInt(m.group(2));
    int parts = Integer.parseInt(m.group(3));
    if (part < 1 || part > parts) {
      return Optional.empty();
    }
    return Optional.of(new CheckpointName(version, part, parts));
  }

  /**
   * The storage path of a file named in an {@code add} or {@code remove}: %xx escapes decoded, and a
   * relative path joined to {@code root}. Absolute URIs ({@code s3a://b/t/f.parquet},
   * {@code file:/t/f.parquet}) and absolute paths are returned decoded.
   */
  public static String resolve(String root, String relativeOrAbsolutePath) {
    String decoded = decode(relativeOrAbsolutePath);
    if (isAbsolute(relativeOrAbsolutePath)) {
      return decoded;
    }
    return stripSlash(root) + "/" + decoded;
  }

  /**
   * Decodes %xx escapes (UTF-8). Unlike {@link java.net.URLDecoder} a '+' stays a '+', as in URIs.
   *
   * @throws IllegalArgumentException on a malformed escape
   */
  public static String decode(String path) {
    if (path.indexOf('%') < 0) {
      return path;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '%') {
        if (i + 2 >= path.length()) {
          throw new IllegalArgumentException("truncated %xx escape at index " + i + " in path '" + path + "'");
        }
        int hi = Character.digit(path.charAt(i + 1), RADIX_HEX);
        int lo = Character.digit(path.charAt(i + 2), RADIX_HEX);
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("invalid %xx escape at index " + i + " in path '" + path + "'");
        }
        bytes.write(hi * RADIX_HEX + lo);
        i += 2;
      } else {
        byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < path.length()) {
          utf8 = path.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.write(utf8, 0, utf8.length);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * Encodes a relative file path for an {@code add} action: every byte outside RFC 3986's
   * unreserved characters and '/' becomes %XX (UTF-8), e.g. a space in a partition value → %20.
   */
  public static String encode(String relativePath) {
    StringBuilder out = new StringBuilder(relativePath.length());
    for (byte b : relativePath.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xFF;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || UNESCAPED.indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX_DIGITS.charAt(c >> 4)).append(HEX_DIGITS.charAt(c & 0xF));
      }
    }
    return out.toString();
  }

  private static boolean isAbsolute(String path) {
    if (path.startsWith("/")) {
      return true;
    }
    int colon = path.indexOf(':');
    int slash = path.indexOf('/');
    return colon > 0 && (slash < 0 || colon < slash);
  }

  private static String stripSlash(String root) {
    return root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
  }
}
