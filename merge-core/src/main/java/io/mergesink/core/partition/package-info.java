/**
 * Partition columns: the string form of partition values in {@code add.partitionValues}
 * (PROTOCOL.md, "Partition Value Serialization").
 */
package io.mergesink.core.partition;
