package io.mergesink.core.log;

import io.mergesink.core.data.Row;
import io.mergesink.core.testing.KernelTables;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What Delta Kernel, the independent reader, sees in a table ({@link KernelTables} condensed for checkpoint tests). */
final class KernelCheck {
  /** The state Kernel reports: version, live key values (DVs applied, sorted), txn versions asked for. */
  record View(long version, List<String> keys, Map<String, Long> txns, int readerVersion, List<String> readerFeatures) {}

  private KernelCheck() {}

  static View read(String tablePath, String keyColumn, List<String> appIds) {
    int keyOrdinal = KernelTables.schema(tablePath).indexOf(keyColumn);
    List<String> keys = new ArrayList<>();
    for (Row row : KernelTables.readRows(tablePath)) {
      keys.add(String.valueOf(row.get(keyOrdinal)));
    }
    Collections.sort(keys);
    Map<String, Long> txns = new TreeMap<>();
    for (String appId : appIds) {
      KernelTables.txnVersion(tablePath, appId).ifPresent(v -> txns.put(appId, v));
    }
    KernelTables.KernelProtocol protocol = KernelTables.protocol(tablePath);
    return new View(KernelTables.latestVersion(tablePath), keys, txns, protocol.minReaderVersion(),
        new ArrayList<>(new java.util.TreeSet<>(protocol.readerFeatures())));
  }
}
