package io.mergesink.core.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class Z85Test {

  @Test
  void encodesTheZeroMqReferenceVector() {
    // ZeroMQ RFC 32 test case: these 8 bytes encode to "HelloWorld".
    byte[] bytes = {(byte) 0x86, 0x4F, (byte) 0xD2, 0x6F, (byte) 0xB5, 0x59, (byte) 0xF7, 0x5B};

    assertThat(Z85.encode(bytes)).isEqualTo("HelloWorld");
    assertThat(Z85.decode("HelloWorld")).containsExactly(bytes);
  }

  @Test
  void decodesTheUuidOfProtocolExampleOne() {
    // PROTOCOL.md, "JSON Example 1": "ab^-aqEH.-t@S}K{vb[*k^" is prefix "ab" and this UUID.
    UUID uuid = UUID.fromString("d2c639aa-8816-431a-aaf6-d3fe2512ff61");

    assertThat(Z85.decodeUuid("^-aqEH.-t@S}K{vb[*k^")).isEqualTo(uuid);
    assertThat(Z85.encodeUuid(uuid)).isEqualTo("^-aqEH.-t@S}K{vb[*k^");
  }

  @Test
  void roundTripsBytesAndUuids() {
    Random random = new Random(42);
    for (int length = 0; length <= 64; length += 4) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      String text = Z85.encode(bytes);
      assertThat(text).hasSize(length / 4 * 5);
      assertThat(Z85.decode(text)).containsExactly(bytes);
    }
    for (int i = 0; i < 100; i++) {
      UUID uuid = new UUID(random.nextLong(), random.nextLong());
      assertThat(Z85.encodeUuid(uuid)).hasSize(Z85.ENCODED_UUID_LENGTH);
      assertThat(Z85.decodeUuid(Z85.encodeUuid(uuid))).isEqualTo(uuid);
    }
    assertThat(Z85.encode(new byte[] {-1, -1, -1, -1})).isEqualTo("%nSc0");
    assertThat(Z85.encode(new byte[4])).isEqualTo("00000");
  }

  @Test
  void rejectsBadInputNamingWhatWasFound() {
    assertThatThrownBy(() -> Z85.encode(new byte[5]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 4, found 5");
    assertThatThrownBy(() -> Z85.decode("Hello!"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 5, found 6");
    assertThatThrownBy(() -> Z85.decode("Hel~o"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'~' at position 3");
    assertThatThrownBy(() -> Z85.decode("Helé0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'é' at position 3");
    assertThatThrownBy(() -> Z85.decode("%nSc1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("largest 4-byte value");
    assertThatThrownBy(() -> Z85.decodeUuid("HelloWorld"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("20 characters, found 10");
  }
}
