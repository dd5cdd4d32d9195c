package io.mergesink.connect.testing;

import io.mergesink.core.testing.TestS3;
import io.mergesink.ingest.config.S3StoreOptions;
import io.mergesink.locals3.LocalS3;
import java.util.HashMap;
import java.util.Map;

/** The connector's S3 options that reach the tests' shared S3 server ({@link TestS3}): endpoint, path style, region, keys. */
public final class S3SinkOptions {
  private S3SinkOptions() {}

  /** A new mutable map of the options, for a test to add its own. */
  public static Map<String, String> testServer() {
    LocalS3 server = TestS3.s3();
    Map<String, String> options = new HashMap<>();
    options.put(S3StoreOptions.ENDPOINT, server.endpoint());
    options.put(S3StoreOptions.PATH_STYLE, "true");
    options.put(S3StoreOptions.REGION, LocalS3.REGION);
    options.put(S3StoreOptions.ACCESS_KEY_ID, LocalS3.ACCESS_KEY);
    options.put(S3StoreOptions.SECRET_ACCESS_KEY, LocalS3.SECRET_KEY);
    return options;
  }
}
