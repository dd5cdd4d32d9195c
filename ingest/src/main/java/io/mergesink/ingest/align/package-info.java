/**
 * Aligning decoded rows with a table's schema: reorder columns by name, fill missing nullable
 * columns with null, widen values where the table's type is wider, and report columns the table
 * lacks so that schema evolution can add them.
 */
package io.mergesink.ingest.align;
