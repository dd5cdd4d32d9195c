package io.mergesink.localpg;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.IntSupplier;

/**
 * Ports for a server that runs as another process and binds its port only after it was chosen:
 * another process may take the port in between. A port is chosen below the kernel's ephemeral range,
 * where no outgoing connection or port-0 listener lands (parallel builds start brokers and servers
 * all the time), and a server that finds its port taken all the same is started again on another.
 * A copy of local-s3's class of the same name: neither module depends on the other.
 */
final class ServerPorts {
  /** How many ports a start tries; more than one taken in a row means something holds ports at random. */
  static final int ATTEMPTS = 5;

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  /** Where ephemeral ports start when the kernel does not say (IANA's range; Linux defaults to 32768). */
  private static final int IANA_EPHEMERAL_START = 49_152;
  private static final int LOWEST = 10_000;
  private static final Random RANDOM = new Random();

  private ServerPorts() {}

  /** One start of the server on a port. */
  interface Start<T> {
    /**
     * @return the server listening on {@code port}, or empty when another process had the port (the
     *     attempt left nothing running)
     */
    Optional<T> on(int port);
  }

  /**
   * Starts a server on a port of {@code ports}, and on the next one while the server finds its port
   * taken, up to {@value #ATTEMPTS} ports.
   *
   * @throws IllegalStateException every port tried was taken
   */
  static <T> T start(IntSupplier ports, Start<T> start) {
    List<Integer> taken = new ArrayList<>();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = ports.getAsInt();
      Optional<T> server = start.on(port);
      if (server.isPresent()) {
        return server.get();
      }
      taken.add(port);
    }
    throw new IllegalStateException("another process took each port before the server bound it: " + taken);
  }

  /** A port of {@code host} free now, at random between {@value #LOWEST} and the ephemeral range. */
  static int free(String host) {
    int below = ephemeralRangeStart();
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = LOWEST + RANDOM.nextInt(below - LOWEST);
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(host))) {
        return socket.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IllegalStateException("no free port on " + host + " between " + LOWEST + " and " + below + " after 100 attempts");
  }

  private static int ephemeralRangeStart() {
    try {
      // Files.readString trusts the size procfs reports, and reads a single byte of this file
      return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return IANA_EPHEMERAL_START;
    }
  }
}
