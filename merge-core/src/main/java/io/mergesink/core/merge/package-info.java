/**
 * Merge planning: the deletion-vector, copy-on-write and truncate strategies that turn keyed
 * changes into the actions of one commit, the key lookups and key ranges they prune with, and the
 * change data feed they write alongside.
 */
package io.mergesink.core.merge;
