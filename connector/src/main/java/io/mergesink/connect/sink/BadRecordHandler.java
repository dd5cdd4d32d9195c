package io.mergesink.connect.sink;

import io.mergesink.connect.config.ErrorTolerance;
import io.mergesink.ingest.errors.BadRecordException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a record that cannot be written (docs/design.md, "Bad input"): with
 * {@code errors.tolerance=all} and a dead letter queue it is reported there and the partition moves
 * on; otherwise the task fails with an error naming topic, partition and offset.
 *
 * <p>A record's position is recorded in its table once the next commit succeeds, so the reports
 * must be durable first: {@link #awaitReported()} runs before every commit.
 */
public final class BadRecordHandler {
  private static final Logger LOG = LoggerFactory.getLogger(BadRecordHandler.class);

  private final ErrorTolerance tolerance;
  private final ErrantRecordReporter reporter;
  private final List<Future<Void>> pending = new ArrayList<>();

  /** @param reporter Connect's dead letter queue reporter, or null when the worker has none */
  public BadRecordHandler(ErrorTolerance tolerance, ErrantRecordReporter reporter) {
    this.tolerance = tolerance;
    this.reporter = reporter;
  }

  /**
   * Reports a bad record, or throws.
   *
   * @throws ConnectException naming the record when errors are not tolerated
   */
  public void handle(SinkRecord record, BadRecordException problem) {
    String where = "topic " + record.originalTopic() + ", partition " + record.originalKafkaPartition() + ", offset "
        + record.originalKafkaOffset();
    String message = problem.getMessage() != null && problem.getMessage().contains("offset " + record.originalKafkaOffset())
        ? problem.getMessage()
        : "record at " + where + ": " + problem.getMessage();
    if (tolerance != ErrorTolerance.ALL) {
      throw new ConnectException(message + " (set errors.tolerance=all and errors.deadletterqueue.topic.name to route such"
          + " records to a dead letter queue)", problem);
    }
    if (reporter == null) {
      LOG.warn("Skipping bad record (errors.tolerance=all, no dead letter queue configured): {}", message);
      return;
    }
    LOG.warn("Sending bad record to the dead letter queue: {}", message);
    pending.add(reporter.report(record, problem));
  }

  /** Waits until every reported record is in the dead letter queue. */
  public void awaitReported() {
    try {
      for (Future<Void> report : pending) {
        report.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException("interrupted while writing to the dead letter queue", e);
    } catch (ExecutionException e) {
      throw new ConnectException("could not write a record to the dead letter queue", e.getCause());
    }
    pending.clear();
  }
}
