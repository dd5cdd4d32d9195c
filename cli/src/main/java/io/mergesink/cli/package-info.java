/**
 * The {@code mergesink} command for operators: inspect a Delta, Iceberg or Paimon table MergeSink
 * writes ({@code describe}, {@code history}, {@code offsets}, {@code scan}) and maintain a Delta or
 * Iceberg one ({@code compact}; Delta tables also {@code vacuum}, {@code checkpoint}; Paimon's
 * writers maintain Paimon tables). Iceberg tables are opened through the engine's Iceberg format and
 * its catalogs ({@link io.mergesink.cli.IcebergTableRef}), Paimon tables through its Paimon format
 * ({@link io.mergesink.cli.PaimonTableRef}).
 * Plain text for people, {@code --json} for scripts; an error is one line on stderr and a non-zero
 * exit.
 */
package io.mergesink.cli;
