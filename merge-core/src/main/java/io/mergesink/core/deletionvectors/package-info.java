/**
 * Deletion vectors: the sets of deleted row positions of a data file, in Delta's binary formats
 * (PROTOCOL.md, sections <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vectors">"Deletion Vectors"</a>,
 * <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-descriptor-schema">"Deletion Vector Descriptor Schema"</a> and appendix
 * <a href="https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-format">"Deletion Vector Format"</a>).
 *
 * <ul>
 *   <li>{@link io.mergesink.core.deletionvectors.Z85}: the Base85 variant of DV paths and inline DVs.
 *   <li>{@link io.mergesink.core.deletionvectors.RoaringBitmapArrayCodec}: one bitmap as bytes
 *       (magic number plus portable 64-bit RoaringBitmap), byte-identical with Spark.
 *   <li>{@link io.mergesink.core.deletionvectors.DeletionVectorStore}: DV files and inline DVs,
 *       addressed by {@link io.mergesink.core.deletionvectors.DeletionVectorDescriptor}s.
 * </ul>
 *
 * <p>Bitmaps are {@link org.roaringbitmap.longlong.Roaring64NavigableMap}s of row indexes
 * (0-based positions in the data file).
 */
package io.mergesink.core.deletionvectors;
