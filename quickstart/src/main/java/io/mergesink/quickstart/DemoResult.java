package io.mergesink.quickstart;

import java.util.Map;

/**
 * How the demo ended.
 *
 * @param table the table's path or URI (kept)
 * @param state the table's last state
 * @param sourceRows rows of the source table at the end
 * @param endOffsets the topic's end offsets at the end, by partition
 * @param caughtUp whether the table reflects every event of the topic
 */
record DemoResult(String table, TableState state, long sourceRows, Map<Integer, Long> endOffsets, boolean caughtUp) {}
