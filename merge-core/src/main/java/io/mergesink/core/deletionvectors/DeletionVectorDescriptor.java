package io.mergesink.core.deletionvectors;

import java.util.Objects;

/**
 * The {@code deletionVector} field of an {@code add} or {@code remove} action (PROTOCOL.md,
 * "Deletion Vector Descriptor Schema").
 *
 * @param storageType {@code u} (relative path as Z85 UUID), {@code i} (inline) or {@code p} (absolute path)
 * @param pathOrInlineDv the encoded location or the Z85 inline bitmap
 * @param offset byte offset of the DV in its file, null for inline DVs
 * @param sizeInBytes size of the serialized bitmap
 * @param cardinality number of deleted rows
 */
public record DeletionVectorDescriptor(
    String storageType, String pathOrInlineDv, Integer offset, int sizeInBytes, long cardinality) {

  public static final String UUID_RELATIVE = "u";
  public static final String INLINE = "i";
  public static final String ABSOLUTE_PATH = "p";

  public DeletionVectorDescriptor {
    Objects.requireNonNull(storageType, "storageType");
    Objects.requireNonNull(pathOrInlineDv, "pathOrInlineDv");
  }

  public boolean isInline() {
    return INLINE.equals(storageType);
  }

  /** The identity Delta uses for a DV ({@code storageType + pathOrInlineDv [+ "@" + offset]}). */
  public String uniqueId() {
    return offset == null ? storageType + pathOrInlineDv : storageType + pathOrInlineDv + "@" + offset;
  }
}
