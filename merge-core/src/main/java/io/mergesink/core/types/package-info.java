/** The schema model: Delta column types and their in-memory value representation. */
package io.mergesink.core.types;
