package io.mergesink.ingest.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Accepts empty or an absolute http(s) URL with a host (an endpoint override). */
final class HttpUrlValidator implements ConfigDef.Validator {
  private final String example;

  /** @param example a valid value, shown in the error message */
  HttpUrlValidator(String example) {
    this.example = example;
  }

  @Override
  public void ensureValid(String name, Object value) {
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return;
    }
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw new ConfigException(name, value, "expected an http:// or https:// URL with a host, e.g. " + example);
      }
    } catch (URISyntaxException e) {
      throw new ConfigException(name, value, "not a URL: " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "empty, or an http(s) URL";
  }
}
