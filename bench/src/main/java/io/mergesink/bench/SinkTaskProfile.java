package io.mergesink.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a sink task's CPU goes, from a JFR recording of an {@code e2e} run: each execution sample
 * of a thread running Connect's {@code WorkerSinkTask} is put in the first step whose method is on
 * its stack, and the shares are printed as a Markdown table.
 *
 * <pre>
 * java -Xmx8g -XX:FlightRecorderOptions:stackdepth=256 -XX:StartFlightRecording=filename=e2e.jfr,settings=profile \
 *     -jar bench/target/mergesink-bench.jar e2e --only=uniform --tasks=1 --repeats=1
 * java -jar bench/target/mergesink-bench.jar profile e2e.jfr
 * </pre>
 */
final class SinkTaskProfile {
  static final String SUITE = "profile";
  private static final String SINK_TASK_FRAME = "org.apache.kafka.connect.runtime.WorkerSinkTask.";
  private static final String OTHER = "Connect runtime, other";

  /**
   * Steps by a method (or class) prefix that marks them, in matching order: compaction runs
   * inside the task's commit path, so it is matched before the commit.
   */
  private static final Map<String, String> STEPS = new LinkedHashMap<>();

  static {
    STEPS.put("toConnectData", "converter (bytes → Connect record)");
    STEPS.put("io.mergesink.ingest.decode.", "decode (Connect record → change event)");
    STEPS.put("io.mergesink.ingest.buffer.", "buffer and coalesce by key");
    STEPS.put("io.mergesink.core.maintenance.", "compaction");
    STEPS.put("io.mergesink.core.", "merge-core commit (index, Parquet, DVs, log)");
    STEPS.put("io.mergesink.connect.", "sink, other (routing, flush bookkeeping)");
    STEPS.put("org.apache.kafka.clients.consumer.", "consumer poll and fetch");
  }

  private SinkTaskProfile() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2 || !args[0].equals(SUITE)) {
      System.err.println("usage: java -jar mergesink-bench.jar " + SUITE + " RECORDING.jfr");
      System.exit(2);
      return;
    }
    Map<String, Long> samples = new LinkedHashMap<>();
    STEPS.values().forEach(step -> samples.put(step, 0L));
    samples.put(OTHER, 0L);
    long total = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[1]))) {
      if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
        continue;
      }
      List<String> frames = event.getStackTrace().getFrames().stream().map(SinkTaskProfile::method).toList();
      if (frames.stream().noneMatch(frame -> frame.startsWith(SINK_TASK_FRAME))) {
        continue;
      }
      if (event.getStackTrace().isTruncated()) {
        throw new IllegalArgumentException("stack traces are truncated: record with -XX:FlightRecorderOptions:stackdepth=256");
      }
      samples.merge(step(frames), 1L, Long::sum);
      total++;
    }
    if (total == 0) {
      throw new IllegalArgumentException("no execution samples of a sink task in " + args[1]);
    }
    System.out.printf("Sink task CPU by step, %,d execution samples of WorkerSinkTask threads in %s%n%n", total, args[1]);
    System.out.println("| step | samples | share |");
    System.out.println("|---|---|---|");
    for (Map.Entry<String, Long> step : samples.entrySet()) {
      System.out.printf("| %s | %,d | %.0f%% |%n", step.getKey(), step.getValue(), 100.0 * step.getValue() / total);
    }
  }

  private static String step(List<String> frames) {
    for (Map.Entry<String, String> step : STEPS.entrySet()) {
      for (String frame : frames) {
        if (frame.startsWith(step.getKey()) || frame.endsWith("." + step.getKey())) {
          return step.getValue();
        }
      }
    }
    return OTHER;
  }

  private static String method(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }
}
