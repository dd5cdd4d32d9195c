/**
 * The {@code mergesink} command for operators: inspect a Delta or Iceberg table MergeSink writes
 * ({@code describe}, {@code history}, {@code offsets}, {@code scan}) and maintain it
 * ({@code compact}; Delta tables also {@code vacuum}, {@code checkpoint}). Iceberg tables are opened
 * through the engine's Iceberg format and its catalogs ({@link io.mergesink.cli.IcebergTableRef}).
 * Plain text for people, {@code --json} for scripts; an error is one line on stderr and a non-zero
 * exit.
 */
package io.mergesink.cli;
