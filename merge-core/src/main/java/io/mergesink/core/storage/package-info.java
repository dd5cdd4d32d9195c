/** The file-system seam: every byte the engine reads or writes passes through {@link io.mergesink.core.storage.Storage}. */
package io.mergesink.core.storage;
