/** What the engine reports as it goes, for its front end to publish as metrics. */
package io.mergesink.ingest.metrics;
