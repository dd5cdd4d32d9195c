/**
 * Which Delta protocols and table features MergeSink reads and writes, and the refusal, before
 * anything is written, of a table that needs anything else.
 */
package io.mergesink.core.protocol;
