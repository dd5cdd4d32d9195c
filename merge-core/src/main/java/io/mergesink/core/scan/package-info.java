/** Reading the live rows of a snapshot, deletion vectors applied. */
package io.mergesink.core.scan;
