package io.mergesink.connect.e2e;

import io.mergesink.connect.e2e.BankWorkload.Account;
import io.mergesink.connect.e2e.BankWorkload.Transfer;
import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import io.mergesink.core.types.StructType;
import io.mergesink.ingest.cut.CutPublisher;
import io.mergesink.ingest.testing.IcebergTables;
import io.mergesink.ingest.testing.SinkTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Reads what the sink wrote for a {@link BankWorkload} with the format's independent reader (Delta
 * Kernel, Iceberg's generic reader) and notes every way it breaks the bank's invariants:
 *
 * <ul>
 *   <li>every version of each table holds, per transfer, all or none of its changes to that table: an
 *       account's balance is its balance after the transfer its {@code last_transfer} names, and a
 *       transfer between two accounts of one table is applied to both or to neither;
 *   <li>at every published cut ({@value CutPublisher#TABLE}), the three tables read at their versions
 *       there are the bank after the cut's transaction, exactly: the total over the accounts is
 *       {@link BankWorkload#TOTAL}, every transfer row comes with both its account updates, and no
 *       account holds a transfer whose row is missing.
 * </ul>
 *
 * Each {@link #check()} looks at the versions and cuts that appeared since the last one.
 */
final class CutChecker {
  private static final List<String> TABLES = List.of(BankWorkload.ACCOUNTS_A, BankWorkload.ACCOUNTS_B, BankWorkload.TRANSFERS);
  /** How many problems are kept: the first ones tell what went wrong. */
  private static final int MAX_PROBLEMS = 20;

  /** Each table's rows by id, each row its columns by name. */
  private record Version(Map<Integer, Map<String, Object>> rows) {}

  private final SinkTables format;
  private final BankWorkload bank;
  private final Map<String, String> paths = new LinkedHashMap<>();
  private final String cutTable;
  private final Map<String, Set<Long>> checkedVersions = new HashMap<>();
  private final Map<String, Map<Long, Version>> read = new HashMap<>();
  /** Cut offset → table → version, of the cuts checked. */
  private final NavigableMap<Long, Map<String, Long>> cuts = new TreeMap<>();
  /** Cut offset → how many transfers the source had committed at the cut's transaction. */
  private final Map<Long, Integer> cutTransfers = new HashMap<>();
  private final List<String> problems = new ArrayList<>();

  /**
   * @param tablePath where the sink puts the table of a PostgreSQL table
   * @param root the sink's {@code table.root}
   */
  CutChecker(SinkTables format, BankWorkload bank, java.util.function.UnaryOperator<String> tablePath, String root) {
    this.format = format;
    this.bank = bank;
    TABLES.forEach(table -> paths.put(table, tablePath.apply(table)));
    this.cutTable = format.location(root, CutPublisher.TABLE);
  }

  /** Checks the versions and cuts that appeared since the last call; returns the cuts checked so far, by offset. */
  NavigableMap<Long, Map<String, Long>> check() {
    for (String table : TABLES) {
      for (long version : versions(paths.get(table))) {
        if (checkedVersions.computeIfAbsent(table, name -> new HashSet<>()).add(version)) {
          checkVersion(table, version);
        }
      }
    }
    if (format.exists(cutTable)) {
      StructType schema = format.schema(cutTable);
      Map<Long, Map<String, Long>> published = new TreeMap<>();
      Map<Long, String> positions = new HashMap<>();
      for (Row row : format.readRows(cutTable)) {
        long cut = number(row.get(schema.indexOf(CutPublisher.CUT)));
        String table = name(row.get(schema.indexOf(CutPublisher.TABLE_NAME)).toString());
        published.computeIfAbsent(cut, offset -> new TreeMap<>()).put(table, number(row.get(schema.indexOf(CutPublisher.VERSION))));
        positions.put(cut, row.get(schema.indexOf(CutPublisher.SOURCE_POSITION)).toString());
      }
      published.forEach((cut, versions) -> {
        if (!cuts.containsKey(cut)) {
          cuts.put(cut, versions);
          checkCut(cut, positions.get(cut), versions);
        }
      });
    }
    return cuts;
  }

  /** How many transfers the newest cut checked holds; 0 before the first. */
  int transfersAtNewestCut() {
    return cuts.isEmpty() ? 0 : cutTransfers.getOrDefault(cuts.lastKey(), 0);
  }

  /** The versions of each table checked so far. */
  Map<String, Integer> versionsChecked() {
    Map<String, Integer> counts = new TreeMap<>();
    checkedVersions.forEach((table, versions) -> counts.put(table, versions.size()));
    return counts;
  }

  /** The problems found so far, the first {@value #MAX_PROBLEMS}; empty when every check passed. */
  List<String> problems() {
    return List.copyOf(problems);
  }

  private void checkVersion(String table, long version) {
    Version rows = read(table, version);
    String at = "table " + table + " at version " + version;
    if (table.equals(BankWorkload.TRANSFERS)) {
      rows.rows().forEach((id, row) -> {
        Transfer transfer = bank.transfer(id);
        if (transfer == null || !transfer.from().equals(account(row, "from")) || !transfer.to().equals(account(row, "to"))
            || transfer.amount() != number(row.get("amount"))) {
          problem(at + ": transfer row " + row + ", the source's is " + transfer);
        }
      });
      return;
    }
    int newest = 0;
    for (Map.Entry<Integer, Map<String, Object>> row : rows.rows().entrySet()) {
      Account account = new Account(table, row.getKey());
      int last = (int) number(row.getValue().get("last_transfer"));
      newest = Math.max(newest, last);
      if (!bank.balanceAfter(account, last, number(row.getValue().get("balance")))) {
        problem(at + ": account " + row.getKey() + " has balance " + row.getValue().get("balance") + " with last transfer " + last
            + ", the source's balance after that transfer is " + (last > bank.transferCount() ? "unknown" : bank.balance(account, last)));
      }
    }
    for (int id = 1; id <= newest; id++) {
      Transfer transfer = bank.transfer(id);
      if (transfer != null && transfer.within(table) && applied(rows, transfer.from(), id) != applied(rows, transfer.to(), id)) {
        problem(at + " holds part of transfer " + transfer + ": applied to account " + transfer.from().id() + ": "
            + applied(rows, transfer.from(), id) + ", to account " + transfer.to().id() + ": " + applied(rows, transfer.to(), id));
      }
    }
  }

  private void checkCut(long cut, String sourcePosition, Map<String, Long> versions) {
    String at = "cut " + cut + " (transaction " + sourcePosition + ", versions " + versions + ")";
    if (!versions.keySet().equals(new HashSet<>(TABLES))) {
      problem(at + ": names tables " + versions.keySet() + ", expected " + TABLES);
      return;
    }
    Integer transfers = bank.transfersThrough(Long.parseLong(sourcePosition.split(":")[0])); // PostgreSQL's xid
    if (transfers == null) {
      problem(at + ": not a transaction of the bank");
      return;
    }
    cutTransfers.put(cut, transfers);
    Map<String, Version> tables = new HashMap<>();
    versions.forEach((table, version) -> tables.put(table, read(table, version)));

    long total = 0;
    for (String table : BankWorkload.ACCOUNT_TABLES) {
      for (Map<String, Object> row : tables.get(table).rows().values()) {
        total += number(row.get("balance"));
      }
    }
    if (total != BankWorkload.TOTAL) {
      problem(at + ": the total over the accounts is " + total + ", expected " + BankWorkload.TOTAL);
    }
    Set<Integer> transferIds = tables.get(BankWorkload.TRANSFERS).rows().keySet();
    for (int id : transferIds) {
      Transfer transfer = bank.transfer(id);
      if (transfer != null && (!applied(tables.get(transfer.from().table()), transfer.from(), id)
          || !applied(tables.get(transfer.to().table()), transfer.to(), id))) {
        problem(at + ": transfer " + transfer + " without both its account updates");
      }
    }
    Set<Integer> expectedIds = new HashSet<>();
    LongStream.rangeClosed(1, transfers).forEach(id -> expectedIds.add((int) id));
    if (!transferIds.equals(expectedIds)) {
      problem(at + ": " + transferIds.size() + " transfer rows, the source had transfers 1 to " + transfers);
    }
    for (Account account : bank.accounts()) {
      Map<String, Object> row = tables.get(account.table()).rows().get(account.id());
      long balance = bank.balance(account, transfers);
      int last = bank.lastTransfer(account, transfers);
      if (row == null || number(row.get("balance")) != balance || number(row.get("last_transfer")) != last) {
        problem(at + ": account " + account + " is " + row + ", the source's after transfer " + transfers + " is balance "
            + balance + ", last transfer " + last);
      }
    }
  }

  /** Whether the account's row in {@code table} holds transfer {@code id} (it or a later transfer of the account). */
  private static boolean applied(Version table, Account account, int id) {
    Map<String, Object> row = table.rows().get(account.id());
    return row != null && number(row.get("last_transfer")) >= id;
  }

  private Version read(String table, long version) {
    return read.computeIfAbsent(table, name -> new HashMap<>()).computeIfAbsent(version, v -> {
      String path = paths.get(table);
      StructType schema = format.schema(path);
      List<Row> rows = format == SinkTables.DELTA ? KernelTables.readRows(path, v) : IcebergTables.readRows(IcebergTables.load(path), v);
      Map<Integer, Map<String, Object>> byId = new TreeMap<>();
      for (Row row : rows) {
        Map<String, Object> columns = new LinkedHashMap<>();
        for (int i = 0; i < schema.fields().size(); i++) {
          Object value = row.get(i);
          columns.put(schema.fields().get(i).name(), value instanceof CharSequence text ? text.toString() : value);
        }
        byId.put((int) number(columns.get("id")), columns);
      }
      return new Version(byId);
    });
  }

  /** The versions of the table at {@code path}, as time travel names them (Delta's versions, Iceberg's snapshot ids). */
  private List<Long> versions(String path) {
    if (!format.exists(path)) {
      return List.of();
    }
    if (format == SinkTables.DELTA) {
      return LongStream.rangeClosed(0, KernelTables.latestVersion(path)).boxed().toList();
    }
    Table table = IcebergTables.load(path);
    List<Long> snapshots = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      snapshots.add(snapshot.snapshotId());
    }
    return snapshots;
  }

  private void problem(String problem) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(problem);
    }
  }

  private static Account account(Map<String, Object> row, String side) {
    return new Account(row.get(side + "_table").toString(), (int) number(row.get(side + "_id")));
  }

  /** A table's name without its schema ({@code public/accounts_a}, {@code public.accounts_a}). */
  private static String name(String table) {
    return table.substring(Math.max(table.lastIndexOf('/'), table.lastIndexOf('.')) + 1);
  }

  private static long number(Object value) {
    return ((Number) value).longValue();
  }
}
