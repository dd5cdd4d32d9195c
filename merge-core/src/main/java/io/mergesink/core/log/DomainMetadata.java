package io.mergesink.core.log;

import java.util.Objects;

/**
 * The {@code domainMetadata} action (PROTOCOL.md, "Domain Metadata"): a named configuration string;
 * {@code removed} tombstones the domain.
 */
public record DomainMetadata(String domain, String configuration, boolean removed) implements Action {
  public DomainMetadata {
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(configuration, "configuration");
  }
}
