package io.mergesink.bench;

import java.util.Arrays;

/** Repeated measurements of one quantity: median and spread (min..max). */
public record Samples(double[] values) {

  public Samples {
    if (values.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    values = values.clone();
    Arrays.sort(values);
  }

  public static Samples of(double... values) {
    return new Samples(values);
  }

  public double median() {
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  public double min() {
    return values[0];
  }

  public double max() {
    return values[values.length - 1];
  }

  public int count() {
    return values.length;
  }

  /** {@code median (min–max, n=N) unit}, numbers through {@code format}. */
  public String describe(String format, String unit) {
    return String.format(format, median()) + " " + unit + " (" + String.format(format, min()) + "–" + String.format(format, max())
        + ", n=" + count() + ")";
  }
}
