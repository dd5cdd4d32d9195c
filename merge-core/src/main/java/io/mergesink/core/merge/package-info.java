/**
 * Landing change sets: validation, key lookups, the deletion-vector, copy-on-write and append
 * strategies, and the writer that plans, commits and re-plans them.
 */
package io.mergesink.core.merge;
