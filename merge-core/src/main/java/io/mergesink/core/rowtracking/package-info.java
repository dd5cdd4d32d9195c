/**
 * Row tracking (PROTOCOL.md, "Row Tracking"): the fresh row ids and row commit versions of the
 * files a commit adds, the row id high-water mark in the {@code delta.rowTracking} domain, and the
 * materialized columns through which rewritten and updated rows keep their stable row ids.
 */
package io.mergesink.core.rowtracking;
