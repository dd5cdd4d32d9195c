package io.mergesink.ingest.buffer;

import io.mergesink.core.data.Row;
import io.mergesink.ingest.decode.ChangeEvent.Op;
import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.transaction.TransactionEnds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The pending changes of one topic-partition, by table. How a table's changes are kept (coalesced
 * by key, or every event in order) is the {@link PendingChanges} the buffer is given; the buffer
 * checks what comes in and keeps the size of the whole partition.
 *
 * <p>A buffer that keeps source transactions whole ({@link #wholeTransactions}) has two parts
 * (docs/transactions.md): the sealed part, the changes of complete transactions, kept as above, which
 * is all a flush commits; and the open part, the raw events of the transaction not yet known complete
 * and the events after it, in offset order. {@link #seal} moves complete transactions over: a
 * transaction is complete when its {@code END} counts as many events per table as the partition
 * holds, or when an event of a later transaction arrives (a partition keeps its producer's order). An
 * open part that reaches the buffer limits is sealed as it is: the transaction lands in pieces, and
 * the changes of its pieces name it ({@link TableChanges#transactionPieces()}). With consistent cuts
 * ({@link TransactionEnds#holdsPastCut()}) the open part holds every transaction that ends after the cut,
 * complete or not, and is sealed up to the cut only.
 *
 * <p>The partition's position (what was read, what its tables hold) is not kept here but in
 * {@link io.mergesink.ingest.position.PartitionPositions}; the buffer says up to which offset its
 * sealed part reaches ({@link #sealedThrough()}). Not thread-safe; no I/O.
 */
public final class PartitionBuffer {
  private final String topic;
  private final int partition;
  private final Supplier<PendingChanges> newTable;
  private final BufferLimits limits;
  private final Map<String, PendingChanges> tables = new LinkedHashMap<>();
  private long changeCount;
  private long estimatedBytes;
  /** The newest change is the delete that starts a primary-key change (or its tombstone): its create is not buffered yet. */
  private boolean endsInKeyChange;
  /** The old key of the primary-key change the buffer ends in, while {@link #endsInKeyChange}. */
  private Row keyChangeKey;
  private boolean deferredLastFlush;
  /** Where transactions end; null when the buffer does not keep them whole. */
  private final TransactionEnds ends;
  private final OpenTransactions open = new OpenTransactions();
  /** Transactions that began to land in pieces and did not end yet. */
  private final Set<String> inPieces = new HashSet<>();
  /** By table, the transactions of which its sealed changes hold pieces. */
  private final Map<String, Set<String>> tablePieces = new HashMap<>();

  /**
   * A buffer that commits changes as they come.
   *
   * @param newTable how the changes of each table are kept, e.g. {@link PendingChanges#coalescedByKey()}
   */
  public PartitionBuffer(String topic, int partition, Supplier<PendingChanges> newTable, BufferLimits limits) {
    this(topic, partition, newTable, limits, null);
  }

  private PartitionBuffer(String topic, int partition, Supplier<PendingChanges> newTable, BufferLimits limits, TransactionEnds ends) {
    this.topic = Objects.requireNonNull(topic, "topic");
    this.partition = partition;
    this.newTable = Objects.requireNonNull(newTable, "newTable");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.ends = ends;
  }

  /** A buffer whose sealed part holds whole source transactions only, knowing their ends from {@code ends} (see the class comment). */
  public static PartitionBuffer wholeTransactions(String topic, int partition, Supplier<PendingChanges> newTable, BufferLimits limits,
      TransactionEnds ends) {
    return new PartitionBuffer(topic, partition, newTable, limits, Objects.requireNonNull(ends, "ends"));
  }

  /**
   * Buffers an event for {@code table}.
   *
   * @throws IllegalArgumentException when the event is from another partition or only advances a
   *     position ({@link Op#SKIP})
   */
  public void add(String table, ChangeEvent event) {
    if (!topic.equals(event.topic()) || partition != event.partition()) {
      throw new IllegalArgumentException("record of " + event.topic() + "-" + event.partition() + " given to the buffer of "
          + topic + "-" + partition);
    }
    if (event.op() == Op.SKIP) {
      throw new IllegalArgumentException("a " + Op.SKIP + " event at " + event.position() + " changes nothing to buffer");
    }
    Objects.requireNonNull(table, "table");
    if (holdsOpen(event)) {
      open.add(table, event);
      changeCount++;
      estimatedBytes += SizeEstimator.changeBytes(event);
      return;
    }
    addSealed(table, event);
  }

  /**
   * An event of this partition that changes no table (a replay, a change its table holds already)
   * but counts towards its source transaction: a buffer that keeps transactions whole holds its
   * place; others ignore it.
   */
  public void pass(ChangeEvent event) {
    if (event.transaction() != null && holdsOpen(event)) {
      open.add(null, event);
    }
  }

  /**
   * Moves the complete transactions of the open part to the sealed part, and all of it when it
   * reached the buffer limits (its transactions land in pieces).
   *
   * @return how many transactions began to land in pieces
   */
  public int seal() {
    if (ends == null || open.isEmpty()) {
      return 0;
    }
    ended(sealOpen(open.takeComplete(ends)));
    if (open.changeCount() < limits.maxChanges() && open.estimatedBytes() < limits.maxBytes()) {
      return 0;
    }
    int pieces = 0;
    for (String id : open.transactions()) {
      if (inPieces.add(id)) {
        pieces++;
      }
    }
    sealOpen(open.takeAll());
    return pieces;
  }

  /**
   * The offset of the last event the sealed part accounts for, when an open part follows it; empty
   * when nothing is open (everything read is sealed). A commit's position must not pass it.
   */
  public OptionalLong sealedThrough() {
    OptionalLong first = open.firstOffset();
    return first.isPresent() ? OptionalLong.of(first.getAsLong() - 1) : OptionalLong.empty();
  }

  /** The transactions that began to land in pieces and did not end yet. */
  public Set<String> transactionsInPieces() {
    return Set.copyOf(inPieces);
  }

  /** Source transactions open in this partition: read in part, not yet known complete. */
  public int openTransactions() {
    return open.transactions().size();
  }

  /** Whether {@code event} joins the open part, sealing it first when it begins a later transaction. */
  private boolean holdsOpen(ChangeEvent event) {
    if (ends == null || open.isEmpty() && event.transaction() == null) {
      return false;
    }
    if (!ends.holdsPastCut() && event.transaction() != null && !open.isEmpty()
        && !event.transaction().id().equals(open.lastTransaction())) {
      ended(sealOpen(open.takeAll())); // a later transaction began: those before it in this partition are complete
    }
    return true;
  }

  /**
   * Moves events taken from the open part to the sealed part, noting the pieces of transactions that
   * land in pieces; returns them.
   */
  private List<OpenTransactions.Held> sealOpen(List<OpenTransactions.Held> sealed) {
    for (OpenTransactions.Held held : sealed) {
      if (held.table() == null) {
        continue;
      }
      ChangeEvent event = held.event();
      changeCount--;
      estimatedBytes -= SizeEstimator.changeBytes(event);
      addSealed(held.table(), event);
      if (event.transaction() != null && inPieces.contains(event.transaction().id())) {
        tablePieces.computeIfAbsent(held.table(), table -> new LinkedHashSet<>()).add(event.transaction().id());
      }
    }
    return sealed;
  }

  /** The transactions of {@code sealed} are complete: none of them lands in pieces any more. */
  private void ended(List<OpenTransactions.Held> sealed) {
    sealed.forEach(held -> {
      if (held.event().transaction() != null) {
        inPieces.remove(held.event().transaction().id());
      }
    });
  }

  private void addSealed(String table, ChangeEvent event) {
    PendingChanges pending = tables.computeIfAbsent(table, name -> newTable.get());
    long changesBefore = pending.changeCount();
    long bytesBefore = pending.estimatedBytes();
    pending.add(event);
    // Debezium sends the old key's tombstone between the delete and the create of a key change
    boolean keyChangeTombstone = endsInKeyChange && event.tombstone() && event.key().equals(keyChangeKey);
    endsInKeyChange = event.startsKeyChange() || keyChangeTombstone;
    keyChangeKey = event.startsKeyChange() ? event.key() : keyChangeTombstone ? keyChangeKey : null;
    changeCount += pending.changeCount() - changesBefore;
    estimatedBytes += pending.estimatedBytes() - bytesBefore;
  }

  /**
   * The pending changes by table, in the order tables first appeared, leaving them in the buffer: a
   * commit that fails must not lose them. After a table's commit succeeded, {@link #committed(String)}
   * drops its changes.
   */
  public List<TableChanges> pending() {
    List<TableChanges> pending = new ArrayList<>(tables.size());
    tables.forEach((table, changes) ->
        pending.add(new TableChanges(table, topic, partition, changes.truncatedAt(), changes.changes(),
            tablePieces.getOrDefault(table, Set.of()))));
    return pending;
  }

  /** Drops the pending changes of {@code table}: they are in the table now. */
  public void committed(String table) {
    PendingChanges removed = tables.remove(table);
    tablePieces.remove(table);
    if (removed != null) {
      changeCount -= removed.changeCount();
      estimatedBytes -= removed.estimatedBytes();
    }
  }

  /**
   * Asked by a flush that is about to commit this partition: whether to leave it buffered this
   * time, because its newest change is the delete that starts a primary-key change. Debezium
   * sends the create of the new key right after it, and the create's unchanged (TOAST) columns
   * come from the old key's row: committed alone, the delete would remove that row first and the
   * columns would land null. Never twice in a row, since the create may have gone to another
   * partition and never come here.
   */
  public boolean defersFlush() {
    deferredLastFlush = endsInKeyChange && !deferredLastFlush;
    return deferredLastFlush;
  }

  /** Whether the buffer holds at least {@code buffer.max.records} changes or {@code buffer.max.bytes}. */
  public boolean isFull() {
    return changeCount >= limits.maxChanges() || estimatedBytes >= limits.maxBytes();
  }

  /** Whether no table has pending changes or truncates, and nothing is open. */
  public boolean isEmpty() {
    return tables.isEmpty() && open.isEmpty();
  }

  /** Pending changes: distinct keys of keyed tables, events of append tables, and the events of the open part. */
  public long changeCount() {
    return changeCount;
  }

  /** Approximate heap bytes of the pending changes. */
  public long estimatedBytes() {
    return estimatedBytes;
  }

  public String topic() {
    return topic;
  }

  public int partition() {
    return partition;
  }
}
