/**
 * Table writers: the merging writer of keyed tables and the append writer, their options, the view
 * of live rows a change set is decided from, and {@link io.mergesink.core.writer.TableCommits},
 * which plans, commits and re-plans a change set.
 */
package io.mergesink.core.writer;
