/**
 * Table upkeep (docs/design.md, "Maintenance"): compaction of small and deletion-vector-dense files into
 * files of the target size ({@link io.mergesink.core.maintenance.Compactor}), checkpoints and
 * removal of expired log files ({@link io.mergesink.core.maintenance.LogCleaner}), and vacuum of
 * data and DV files no retained version references ({@link io.mergesink.core.maintenance.Vacuum}).
 *
 * <p>Every operation is an ordinary Delta commit or a deletion of files no retained version
 * needs, so it is safe while a sink writes the table: compaction commits with optimistic
 * concurrency and gives way to concurrent DV updates of its inputs, and vacuum never deletes a
 * file younger than its retention.
 */
package io.mergesink.core.maintenance;
