package io.mergesink.core.index;

import io.mergesink.core.data.Row;
import io.mergesink.core.types.PrimitiveType;
import io.mergesink.core.types.StructField;
import io.mergesink.core.types.StructType;
import java.lang.ref.Reference;
import java.util.function.LongFunction;

/**
 * Measures the heap bytes per key of a {@link KeyIndex}: used heap after full GCs before and after
 * building the index, next to {@link KeyIndex#estimatedHeapBytes()}. A benchmark, not a test (no
 * assertions). Run after {@code ./mvnw -q -o -pl merge-core test-compile}:
 *
 * <pre>
 * java -Xmx3g -cp merge-core/target/classes:merge-core/target/test-classes:\
 *   $HOME/.m2/repository/it/unimi/dsi/fastutil-core/8.5.18/fastutil-core-8.5.18.jar \
 *   io.mergesink.core.index.KeyIndexMemoryProbe [keys...]
 * </pre>
 */
public final class KeyIndexMemoryProbe {
  private static final int MAX_GC_ROUNDS = 20;
  private static final long STABLE_BYTES = 64 * 1024;
  private static final long SCRAMBLE = 0x9E37_79B9_7F4A_7C15L;
  private static final int FILES = 1_000;

  private KeyIndexMemoryProbe() {}

  public static void main(String[] args) {
    long[] sizes = args.length == 0 ? new long[] {1_000_000, 10_000_000} : new long[args.length];
    for (int i = 0; i < args.length; i++) {
      sizes[i] = Long.parseLong(args[i]);
    }
    System.out.printf("%-34s %12s %14s %14s %14s%n",
        "key", "keys", "measured B/key", "estimate B/key", "estimate MiB");
    for (long n : sizes) {
      probe("bigint (putLong)", n, schema(PrimitiveType.LONG), null);
      probe("bigint (put Row)", n, schema(PrimitiveType.LONG), i -> Row.of(i * SCRAMBLE));
      probe("string, 16 ASCII chars", n, schema(PrimitiveType.STRING),
          i -> Row.of(String.format("user-%011d", i)));
      probe("(int, long)", n, schema(PrimitiveType.INTEGER, PrimitiveType.LONG),
          i -> Row.of((int) (i % 100_000), i * SCRAMBLE));
      probe("(int, string 16 chars)", n, schema(PrimitiveType.INTEGER, PrimitiveType.STRING),
          i -> Row.of((int) (i % 100_000), String.format("user-%011d", i)));
    }
  }

  private static void probe(String name, long n, StructType schema, LongFunction<Row> keyOf) {
    long before = settledUsedHeap();
    KeyIndex index = KeyIndex.create(schema);
    for (long i = 0; i < n; i++) {
      long location = RowLocation.pack((int) (i % FILES), i);
      if (keyOf == null) {
        index.putLong(i * SCRAMBLE, location);
      } else {
        index.put(keyOf.apply(i), location);
      }
    }
    long after = settledUsedHeap();
    System.out.printf("%-34s %,12d %14.1f %14.1f %14.1f%n", name, n, (after - before) / (double) n,
        index.estimatedHeapBytes() / (double) n, index.estimatedHeapBytes() / (1024.0 * 1024.0));
    Reference.reachabilityFence(index);
  }

  private static long settledUsedHeap() {
    Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int round = 0; round < MAX_GC_ROUNDS; round++) {
      System.gc();
      long now = runtime.totalMemory() - runtime.freeMemory();
      if (Math.abs(used - now) < STABLE_BYTES) {
        return now;
      }
      used = now;
    }
    return used;
  }

  private static StructType schema(PrimitiveType... types) {
    StructField[] fields = new StructField[types.length];
    for (int i = 0; i < types.length; i++) {
      fields[i] = new StructField("k" + i, types[i], false);
    }
    return StructType.of(fields);
  }
}
