/**
 * The Spark comparison of bench/README.md: Spark + Delta Lake {@code MERGE INTO} against merge-core on
 * the same change batches. Run with {@code java -Xmx8g -jar bench-spark/target/mergesink-bench-spark.jar spark}.
 */
package io.mergesink.bench.spark;
