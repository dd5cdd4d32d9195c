package io.mergesink.bench.spark;

import java.util.Arrays;

/** Repeated measurements of one quantity: median and spread (min..max). */
record Samples(double[] values) {

  Samples {
    if (values.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    values = values.clone();
    Arrays.sort(values);
  }

  static Samples of(double... values) {
    return new Samples(values);
  }

  double median() {
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  double min() {
    return values[0];
  }

  double max() {
    return values[values.length - 1];
  }

  int count() {
    return values.length;
  }

  /** {@code median (min–max, n=N) unit}, numbers through {@code format}. */
  String describe(String format, String unit) {
    return String.format(format, median()) + " " + unit + " (" + String.format(format, min()) + "–" + String.format(format, max())
        + ", n=" + count() + ")";
  }
}
