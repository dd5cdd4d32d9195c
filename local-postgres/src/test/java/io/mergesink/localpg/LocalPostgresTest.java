package io.mergesink.localpg;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LocalPostgresTest {
  /** Another process binds the port between the choice and the server's bind: the server comes up on another one. */
  @Test
  void startsOnAnotherPortWhenTheChosenOneIsTakenBeforeTheServerBindsIt() throws Exception {
    assertThat(LocalPostgres.available()).as("PostgreSQL server binaries under /usr/lib/postgresql/*/bin").isTrue();
    try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getByName(LocalPostgres.HOST))) {
      PrimitiveIterator.OfInt ports = IntStream.concat(IntStream.of(other.getLocalPort()),
          IntStream.generate(() -> ServerPorts.free(LocalPostgres.HOST))).iterator();
      try (LocalPostgres postgres = LocalPostgres.start("ports", ports::nextInt)) {
        assertThat(postgres.port()).isNotEqualTo(other.getLocalPort());
        assertThat(postgres.queryLong("SELECT 1")).as("a query over " + postgres.jdbcUrl()).isEqualTo(1);
      }
    }
  }
}
