/**
 * The schema model: Delta column types and their in-memory value representation, and how a
 * schema's columns are stored: column mapping ({@link io.mergesink.core.types.ColumnMapping}) and
 * the type widenings Delta allows ({@link io.mergesink.core.types.TypeChanges}).
 */
package io.mergesink.core.types;
