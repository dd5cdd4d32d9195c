/**
 * Whole-table benchmarks of merge-core against the targets of DESIGN §9, run as one program so
 * that every figure is a ratio taken in the same run on the same machine. Entry point: {@link
 * io.mergesink.bench.MergeCoreBenchmark}. Nothing here is part of the connector.
 */
package io.mergesink.bench;
