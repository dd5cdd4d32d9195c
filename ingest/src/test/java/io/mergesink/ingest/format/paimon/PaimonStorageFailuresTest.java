package io.mergesink.ingest.format.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class PaimonStorageFailuresTest {
  @Test
  void aStorageFailureWrappedByPaimonsThreadsIsTheStorageFailure() {
    IOException injected = new IOException("injected I/O error at CREATE manifest-1");
    RuntimeException wrapped = new RuntimeException("Failed to write deletion vectors.",
        new RuntimeException(new ExecutionException(injected)));

    IOException failure = PaimonFormatTable.storageFailure(wrapped, "committing to Paimon table db.t").orElseThrow();

    assertThat(failure).hasMessage("committing to Paimon table db.t failed: injected I/O error at CREATE manifest-1").hasCause(wrapped);
  }

  @Test
  void aFailureWithoutAStorageFailureAmongItsCausesIsNoStorageFailure() {
    RuntimeException bug = new IllegalStateException("not a storage failure", new ExecutionException(new ArithmeticException()));

    assertThat(PaimonFormatTable.storageFailure(bug, "committing")).isEmpty();
  }
}
