/**
 * Publishing commits: put-if-absent log entries, optimistic concurrency, fencing of zombie writers
 * by txn app id, and the typed outcomes of an attempt.
 */
package io.mergesink.core.commit;
