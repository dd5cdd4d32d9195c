/**
 * Publishing commits: the {@link io.mergesink.core.commit.Transaction} every commit runs in (plan,
 * stage, publish, re-plan on conflicts, delete the files of attempts that did not land), put-if-absent
 * log entries, optimistic concurrency, fencing of zombie writers by txn app id, and the typed
 * outcomes of an attempt.
 */
package io.mergesink.core.commit;
