package io.mergesink.examples.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExampleSettingsTest {
  @TempDir
  Path dir;

  @Test
  void startsFromTheDocumentedDefaultsWithAStateDirOfItsOwn() throws IOException {
    ExampleSettings first = ExampleSettings.parse("--mergesink.table.root=/tmp/lake");
    ExampleSettings second = ExampleSettings.parse("--mergesink.table.root=/tmp/lake");

    Properties streams = first.streamsProperties();
    assertThat(streams).containsEntry("application.id", "mergesink-streams-example")
        .containsEntry("bootstrap.servers", "localhost:9092")
        .containsEntry("processing.guarantee", "exactly_once_v2")
        .containsEntry("commit.interval.ms", "10000")
        .containsEntry("session.timeout.ms", "10000")
        .containsEntry("heartbeat.interval.ms", "3000")
        .doesNotContainKeys("topic", "mergesink.table.root");
    assertThat(Path.of(streams.getProperty("state.dir"))).isDirectory();
    assertThat(second.streamsProperties().getProperty("state.dir"))
        .as("two instances on one host").isNotEqualTo(streams.getProperty("state.dir"));
    assertThat(first.topic()).isEqualTo("pg.public.customers");
    assertThat(first.applicationId()).isEqualTo("mergesink-streams-example");
    assertThat(first.sinkOptions()).isEqualTo(Map.of("table.root", "/tmp/lake"));
    Files.delete(Path.of(streams.getProperty("state.dir")));
    Files.delete(Path.of(second.streamsProperties().getProperty("state.dir")));
  }

  @Test
  void filesOverrideTheDefaultsInTheirOrderAndArgumentsOverrideFiles() throws IOException {
    Path deployment = Files.writeString(dir.resolve("deployment.properties"), String.join("\n",
        "bootstrap.servers=broker-1:9092,broker-2:9092",
        "application.id=customers-lake",
        "state.dir=/var/lib/customers-lake",
        "mergesink.table.root=s3a://lake/cdc",
        "mergesink.merge.strategy=copy-on-write",
        "topic=db1.public.customers"));
    Path instance = Files.writeString(dir.resolve("instance-2.properties"), "state.dir=/var/lib/customers-lake-2\n");

    ExampleSettings settings = ExampleSettings.parse(deployment.toString(), "--session.timeout.ms=6000",
        instance.toString(), "--mergesink.merge.strategy=merge-on-read", "--mergesink.merge.strategy=deletion-vectors");

    assertThat(settings.streamsProperties()).containsEntry("bootstrap.servers", "broker-1:9092,broker-2:9092")
        .containsEntry("application.id", "customers-lake")
        .containsEntry("state.dir", "/var/lib/customers-lake-2")
        .containsEntry("session.timeout.ms", "6000")
        .containsEntry("heartbeat.interval.ms", "3000");
    assertThat(settings.topic()).isEqualTo("db1.public.customers");
    assertThat(settings.sinkOptions())
        .isEqualTo(Map.of("table.root", "s3a://lake/cdc", "merge.strategy", "deletion-vectors"));
  }

  @Test
  void refusesWhatItCannotRun() {
    assertThatThrownBy(ExampleSettings::parse).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mergesink.table.root is required: where the tables are");
    assertThatThrownBy(() -> ExampleSettings.parse("--mergesink.table.root=/tmp/lake", "--mergesink.txn.app.id=mine"))
        .hasMessage("mergesink.txn.app.id cannot be set: the example sets it for each of its sinks");
    assertThatThrownBy(() -> ExampleSettings.parse("--mergesink.table.root"))
        .hasMessage("'--mergesink.table.root' is not --key=value");
    assertThatThrownBy(() -> ExampleSettings.parse(dir.resolve("missing.properties").toString()))
        .hasMessageStartingWith("cannot read properties file " + dir.resolve("missing.properties"));
  }
}
