/** In-memory rows exchanged between the table engine and its callers. */
package io.mergesink.core.data;
