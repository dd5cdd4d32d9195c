/**
 * Benchmarks of bench/README.md, each suite run as one program so that every figure is a ratio
 * taken in the same run on the same machine. Entry point: {@link io.mergesink.bench.Bench}, which
 * runs the whole-table merge-core suite ({@link io.mergesink.bench.MergeCoreBenchmark}) or the
 * end-to-end suite through an embedded Connect worker ({@link io.mergesink.bench.E2eBenchmark}).
 * Nothing here is part of the connector. Method and results: {@code bench/README.md}.
 */
package io.mergesink.bench;
