/**
 * Generated columns (PROTOCOL.md, "Generated Columns"): the small set of generation expressions
 * MergeSink computes (the date, year, month, day or hour of a date or timestamp column), their
 * values computed as Spark computes them, and the refusal of every other expression by name.
 */
package io.mergesink.core.generatedcolumns;
