package io.mergesink.ingest.format.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.storage.LocalStorage;
import io.mergesink.core.table.DeltaTable;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.ingest.IngestEngine;
import io.mergesink.ingest.config.IngestOptions;
import io.mergesink.ingest.metrics.IngestMetrics;
import io.mergesink.ingest.record.KafkaPartition;
import io.mergesink.ingest.record.KafkaRecord;
import io.mergesink.ingest.testing.ChangeRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One task writing the tables of many topics (a whole database in one connector): each table's
 * files are owned by the task's partitions of that table's topic only (docs/design.md, "File
 * ownership"), whichever of them had changes, so a file's owner tag does not grow with the number
 * of partitions the task holds.
 */
class TableFileOwnersTest {
  private static final int TOPICS = 8;

  @TempDir Path dir;

  @Test
  void eachTablesFilesAreOwnedByTheTasksPartitionsOfItsTopic() throws Exception {
    IngestOptions options = IngestOptions.builder(dir.toString(), "sink").tableNameFormat("${topic}").commitInterval(Duration.ZERO)
        .compaction(false, 0.25, 10).build();
    List<KafkaPartition> partitions = new ArrayList<>();
    for (int topic = 0; topic < TOPICS; topic++) {
      partitions.add(new KafkaPartition(topic(topic), 0));
      partitions.add(new KafkaPartition(topic(topic), 1));
    }
    try (IngestEngine engine = new IngestEngine(options, IngestMetrics.NONE)) {
      engine.open(partitions);
      engine.seeksApplied();
      for (int round = 0; round < 3; round++) {
        for (int topic = 0; topic < TOPICS; topic++) {
          // partition 1 of a topic has changes every other round: the owners stay the same
          for (int partition = 0; partition <= (round % 2 == 0 ? 1 : 0); partition++) {
            long id = topic * 100L + round * 10 + partition;
            engine.accept(onTopic(ChangeRecords.upsert(partition, round, "any", id, "v" + round), topic(topic)));
          }
        }
        engine.flush();
      }
    }

    for (int topic = 0; topic < TOPICS; topic++) {
      String path = dir.resolve(topic(topic)).toString();
      Set<FileOwners> owners = DeltaTable.forPath(new LocalStorage(), path).snapshot().files().values().stream().map(FileOwners::of)
          .collect(Collectors.toSet());
      assertThat(owners).as("owners of the files of %s", path)
          .containsExactly(FileOwners.of(List.of(topic(topic) + ":0", topic(topic) + ":1")));
      assertThat(KernelTables.readRows(path)).hasSize(5);
    }
  }

  private static String topic(int topic) {
    return "pg.public.t" + topic;
  }

  private static KafkaRecord onTopic(KafkaRecord record, String topic) {
    return new KafkaRecord(new KafkaPartition(topic, record.partition().partition()), record.offset(), topic, record.timestamp(),
        record.keySchema(), record.key(), record.valueSchema(), record.value(), record.headers());
  }
}
