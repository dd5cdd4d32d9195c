package io.mergesink.locals3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LocalS3Test {
  /** Another process binds the port between the choice and S3Proxy's bind: the server comes up on another one. */
  @Test
  void startsOnAnotherPortWhenTheChosenOneIsTakenBeforeTheServerBindsIt() throws Exception {
    try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getByName(LocalS3.HOST))) {
      PrimitiveIterator.OfInt ports = IntStream.concat(IntStream.of(other.getLocalPort()),
          IntStream.generate(() -> ServerPorts.free(LocalS3.HOST))).iterator();
      try (LocalS3 s3 = LocalS3.start(ports::nextInt)) {
        assertThat(s3.port()).isNotEqualTo(other.getLocalPort());
        assertThat(statusOfAnAnonymousRequest(s3)).as("S3Proxy refuses an unsigned request").isEqualTo(403);
      }
    }
  }

  private static int statusOfAnAnonymousRequest(LocalS3 s3) throws IOException, InterruptedException {
    HttpResponse<Void> response = HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(s3.endpoint() + "/")).build(), HttpResponse.BodyHandlers.discarding());
    return response.statusCode();
  }
}
