package io.mergesink.bench;

/**
 * One line of the report.
 *
 * @param metric what was measured
 * @param values the measured values, with units and spread
 * @param ratio the figure the target applies to, formatted; "" when there is none
 * @param target the bench/README.md target, or "" when the line is informational
 * @param met whether the target is met; ignored when there is no target
 */
record Result(String metric, String values, String ratio, String target, boolean met) {

  static Result info(String metric, String values) {
    return new Result(metric, values, "", "", true);
  }

  String verdict() {
    return target.isEmpty() ? "–" : met ? "met" : "**not met**";
  }
}
