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
}
