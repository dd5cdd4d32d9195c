/**
 * The {@code mergesink} command for operators: inspect a Delta table MergeSink writes
 * ({@code describe}, {@code history}, {@code offsets}, {@code scan}) and maintain it
 * ({@code compact}, {@code vacuum}, {@code checkpoint}). Plain text for people, {@code --json} for
 * scripts; an error is one line on stderr and a non-zero exit.
 */
package io.mergesink.cli;
