package io.mergesink.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.log.LogPaths.CheckpointName;
import org.junit.jupiter.api.Test;

class LogPathsTest {
  @Test
  void fileNames() {
    assertThat(LogPaths.commitFile("/t/", 7)).isEqualTo("/t/_delta_log/00000000000000000007.json");
    assertThat(LogPaths.checkpointFile("s3a://b/t", 10)).isEqualTo("s3a://b/t/_delta_log/00000000000000000010.checkpoint.parquet");
    assertThat(LogPaths.checkpointPartFile("/t", 5, 2, 3)).isEqualTo("/t/_delta_log/00000000000000000005.checkpoint.0000000002.0000000003.parquet");
    assertThatThrownBy(() -> LogPaths.checkpointPartFile("/t", 5, 4, 3)).hasMessageContaining("found 4");
    assertThat(LogPaths.lastCheckpointFile("/t")).isEqualTo("/t/_delta_log/_last_checkpoint");
    assertThatThrownBy(() -> LogPaths.paddedVersion(-1)).hasMessageContaining("-1");
  }

  @Test
  void versionsFromNames() {
    assertThat(LogPaths.commitVersion("00000000000000000012.json")).hasValue(12);
    assertThat(LogPaths.commitVersion("00000000000000000012.crc")).isEmpty();
    assertThat(LogPaths.commitVersion(".00000000000000000012.json.crc")).isEmpty();
    assertThat(LogPaths.commitVersion("00000000000000000012.json.tmp")).isEmpty();
    assertThat(LogPaths.commitVersion("00000000000000000001.00000000000000000004.compacted.json")).isEmpty();
    assertThat(LogPaths.checkpointVersion("00000000000000000005.checkpoint.parquet")).hasValue(5);
    assertThat(LogPaths.checkpointName("00000000000000000005.checkpoint.0000000002.0000000003.parquet"))
        .hasValue(new CheckpointName(5, 2, 3));
    assertThat(LogPaths.checkpointName("00000000000000000005.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.parquet"))
        .hasValue(new CheckpointName(5, 1, 1));
    assertThat(LogPaths.checkpointName("00000000000000000003.checkpoint.edb927f1-7b47-4bc8-96d9-2f9a27c85c84.json"))
        .hasValue(new CheckpointName(3, 1, 1));
    assertThat(LogPaths.checkpointVersion("00000000000000000003.checkpoint.edb927f1-7b47-4bc8.json")).isEmpty();
    assertThat(LogPaths.checkpointVersion("00000000000000000003.checkpoint.0000000001.0000000001.3f96fcc6-7126-4d79-9c98-e3d30085a098.parquet"))
        .as("a sidecar's name").isEmpty();
    assertThat(LogPaths.checkpointVersion("_last_checkpoint")).isEmpty();
  }

  @Test
  void resolveDecodesAndJoins() {
    assertThat(LogPaths.resolve("/t", "day=2024-01-01%2012%3A00/part%2B1.parquet"))
        .isEqualTo("/t/day=2024-01-01 12:00/part+1.parquet");
    assertThat(LogPaths.resolve("/t/", "x.parquet")).isEqualTo("/t/x.parquet");
    assertThat(LogPaths.resolve("/t", "s3a://other/bucket%20x/f.parquet")).isEqualTo("s3a://other/bucket x/f.parquet");
    assertThat(LogPaths.resolve("/t", "file:/elsewhere/f.parquet")).isEqualTo("file:/elsewhere/f.parquet");
    assertThat(LogPaths.resolve("/t", "caf%C3%A9.parquet")).isEqualTo("/t/café.parquet");
    assertThatThrownBy(() -> LogPaths.decode("bad%2")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad%2");
  }

  @Test
  void encodeIsTheInverseOfDecode() {
    String relative = "region=eu west/day=2024-01-01 12:00/café+1.parquet";

    String encoded = LogPaths.encode(relative);

    assertThat(encoded).isEqualTo("region%3Deu%20west/day%3D2024-01-01%2012%3A00/caf%C3%A9%2B1.parquet");
    assertThat(LogPaths.decode(encoded)).isEqualTo(relative);
  }
}
