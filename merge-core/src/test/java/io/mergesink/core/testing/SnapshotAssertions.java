package io.mergesink.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.log.AddFile;
import io.mergesink.core.snapshot.Snapshot;

/** Assertions on {@link Snapshot}s that two ways of loading a table must agree on. */
public final class SnapshotAssertions {
  private SnapshotAssertions() {}

  /** The same table state: version, protocol, metadata, txns, domain metadata and every live file with its DV and stats. */
  public static void assertSameState(Snapshot actual, Snapshot expected) {
    assertThat(actual.version()).isEqualTo(expected.version());
    assertThat(actual.protocol()).isEqualTo(expected.protocol());
    assertThat(actual.metadata()).isEqualTo(expected.metadata());
    assertThat(actual.txnVersions()).isEqualTo(expected.txnVersions());
    assertThat(actual.files().keySet()).isEqualTo(expected.files().keySet());
    expected.files().forEach((path, add) -> {
      AddFile read = actual.files().get(path);
      assertThat(read.deletionVector()).isEqualTo(add.deletionVector());
      assertThat(read.stats()).isEqualTo(add.stats());
      assertThat(read.size()).isEqualTo(add.size());
      assertThat(read.partitionValues()).isEqualTo(add.partitionValues());
    });
    assertThat(actual.domainMetadata()).isEqualTo(expected.domainMetadata());
  }
}
