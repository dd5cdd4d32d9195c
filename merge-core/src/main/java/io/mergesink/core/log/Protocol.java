package io.mergesink.core.log;

import java.util.Set;

/**
 * The {@code protocol} action (PROTOCOL.md, "Protocol Evolution" and "Table Features").
 *
 * @param readerFeatures the reader features; null unless {@code minReaderVersion >= 3}
 * @param writerFeatures the writer features; null unless {@code minWriterVersion >= 7}
 */
public record Protocol(int minReaderVersion, int minWriterVersion, Set<String> readerFeatures, Set<String> writerFeatures)
    implements Action {
  /** The first reader version that lists reader features explicitly. */
  public static final int TABLE_FEATURES_READER_VERSION = 3;
  /** The first writer version that lists writer features explicitly. */
  public static final int TABLE_FEATURES_WRITER_VERSION = 7;

  public static final String DELETION_VECTORS = "deletionVectors";
  public static final String TIMESTAMP_NTZ = "timestampNtz";
  public static final String APPEND_ONLY = "appendOnly";
  public static final String INVARIANTS = "invariants";
  public static final String DOMAIN_METADATA = "domainMetadata";

  public Protocol {
    readerFeatures = Copies.set(readerFeatures);
    writerFeatures = Copies.set(writerFeatures);
  }

  /** A legacy protocol without feature lists ({@code 1/2} for copy-on-write tables). */
  public static Protocol legacy(int minReaderVersion, int minWriterVersion) {
    return new Protocol(minReaderVersion, minWriterVersion, null, null);
  }

  /** Reader 3 / writer 7 with the given features (every reader feature must also be a writer feature). */
  public static Protocol withFeatures(Set<String> readerFeatures, Set<String> writerFeatures) {
    return new Protocol(TABLE_FEATURES_READER_VERSION, TABLE_FEATURES_WRITER_VERSION, readerFeatures, writerFeatures);
  }

  public boolean supportsReaderFeature(String feature) {
    return readerFeatures != null && readerFeatures.contains(feature);
  }

  public boolean supportsWriterFeature(String feature) {
    return writerFeatures != null && writerFeatures.contains(feature);
  }
}
