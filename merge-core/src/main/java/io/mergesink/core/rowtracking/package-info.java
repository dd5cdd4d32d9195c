/**
 * Row tracking (PROTOCOL.md, "Row Tracking"): the fresh row ids and row commit versions of the
 * files a commit adds, and the row id high-water mark in the {@code delta.rowTracking} domain.
 */
package io.mergesink.core.rowtracking;
