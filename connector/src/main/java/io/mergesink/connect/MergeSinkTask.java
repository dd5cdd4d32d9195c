package io.mergesink.connect;

import io.mergesink.connect.config.MergeSinkConfig;
import io.mergesink.connect.sink.SinkWriter;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * The MergeSink task: a thin shell over {@link SinkWriter}. {@code open} recovers positions from
 * the tables, {@code put} decodes and buffers, {@code preCommit} commits and reports only offsets
 * that are in tables, {@code close} releases partitions.
 */
public final class MergeSinkTask extends SinkTask {
  private SinkWriter writer;

  @Override
  public String version() {
    return MergeSinkConnector.VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    writer = new SinkWriter(new MergeSinkConfig(props), context);
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    writer.open(partitions);
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    writer.put(records);
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    writer.commitPending();
    return writer.committedOffsets();
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    writer.close(partitions);
  }

  @Override
  public void stop() {
    if (writer != null) {
      writer.close();
    }
  }
}
