package io.mergesink.ingest.format.delta;

import io.mergesink.core.ownership.FileOwners;
import io.mergesink.core.ownership.OwnerScope;
import io.mergesink.ingest.format.TableScopeTopics;
import io.mergesink.ingest.options.LookupScope;
import io.mergesink.ingest.position.TxnAppIds;
import io.mergesink.ingest.record.KafkaPartition;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The connector's file owners: its Kafka partitions, named {@code topic:partition}, and the files a
 * task's key index covers (docs/design.md, "File ownership", "Topics that grow"). With
 * {@code lookup.scope=partition} those are the files of the task's partitions, and for every topic
 * the table lists in {@value TableScopeTopics#PROPERTY} (its keys may be in any partition) the
 * files of all of that topic's partitions.
 */
public final class PartitionOwners {
  /** Topic names cannot contain ':', so the last one ends the topic. */
  private static final char PARTITION_SEPARATOR = ':';

  private PartitionOwners() {}

  /** The owners of the rows of {@code partitions}. */
  public static FileOwners of(Collection<KafkaPartition> partitions) {
    return FileOwners.of(partitions.stream().map(p -> p.topic() + PARTITION_SEPARATOR + p.partition()).toList());
  }

  /**
   * The owners of the rows of a change set that carries the positions {@code appIds}, written by a
   * task holding {@code partitions}: the task's partitions of the topics those positions are of. They
   * name every partition whose rows the change set holds, stay the same from one change set of a
   * table to the next (compaction bin-packs only files of identical owners), and stay few when one
   * task writes many tables; all of the task's partitions when the change set carries no position.
   */
  public static FileOwners ofChanges(Collection<KafkaPartition> partitions, Collection<String> appIds) {
    if (appIds.isEmpty()) {
      return of(partitions);
    }
    Set<String> topics = appIds.stream().map(TxnAppIds::topicOf).collect(Collectors.toSet());
    return of(partitions.stream().filter(partition -> topics.contains(partition.topic())).toList());
  }

  /** The key-index scope of a task whose partitions are {@code owners}, computed for each snapshot. */
  public static OwnerScope scope(FileOwners owners, LookupScope lookup) {
    if (lookup == LookupScope.TABLE) {
      return OwnerScope.EVERY_FILE;
    }
    return snapshot -> {
      Set<String> anyPartition = TableScopeTopics.of(snapshot.metadata().configuration());
      return anyPartition.isEmpty() ? owners::contains : name -> owners.contains(name) || anyPartition.contains(topicOf(name));
    };
  }

  private static String topicOf(String owner) {
    int separator = owner.lastIndexOf(PARTITION_SEPARATOR);
    return separator < 0 ? owner : owner.substring(0, separator);
  }
}
