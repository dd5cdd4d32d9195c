package io.mergesink.connect.reliability;

/**
 * A process dying at a point the {@link FaultPlan} chose. An {@link Error}, so that no
 * {@code catch (IOException | RuntimeException)} of the product turns it into a retry: the task
 * stops where it is, as a killed worker would, and the test abandons it.
 */
final class SimulatedCrash extends Error {
  SimulatedCrash(String where) {
    super("simulated crash: " + where);
  }

  /**
   * Whether a crash is among the causes of {@code failure}: Paimon writes files and reads manifests on
   * threads of its own and hands what stopped them on wrapped; the process would have died there all the
   * same.
   */
  static boolean among(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SimulatedCrash) {
        return true;
      }
    }
    return false;
  }
}
