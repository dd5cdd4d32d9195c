package io.mergesink.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the engine relies on from every {@link Storage}, above all that exactly one writer wins a commit file. */
class StorageContractTest {
  private static final int RACERS = 8;

  @TempDir Path dir;

  static Stream<Storage> storages() {
    return Stream.of(new LocalStorage(), HadoopStorage.withDefaults());
  }

  @ParameterizedTest
  @MethodSource("storages")
  void exactlyOneRacerCreatesAFile(Storage storage) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      for (int round = 0; round < 20; round++) {
        String path = dir.resolve("_delta_log/" + String.format("%020d.json", round)).toString();
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<Boolean>> racers = new ArrayList<>();
        for (int racer = 0; racer < RACERS; racer++) {
          byte[] content = ("writer " + racer + "\n").repeat(1000).getBytes(StandardCharsets.UTF_8);
          racers.add(() -> {
            start.await();
            return storage.writeIfAbsent(path, content);
          });
        }
        List<Future<Boolean>> results = new ArrayList<>();
        for (Callable<Boolean> racer : racers) {
          results.add(pool.submit(racer));
        }
        start.countDown();
        int winners = 0;
        for (Future<Boolean> result : results) {
          winners += result.get(30, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertThat(winners).as("round %d", round).isEqualTo(1);
        String content = Files.readString(Path.of(path));
        assertThat(content).as("one writer's whole content").isEqualTo(content.substring(0, content.indexOf('\n') + 1).repeat(1000));
      }
    } finally {
      pool.shutdownNow();
    }
    try (Stream<Path> files = Files.list(dir.resolve("_delta_log"))) {
      assertThat(files.map(file -> file.getFileName().toString())).as("no temporary files left").allMatch(name -> name.endsWith(".json"));
    }
  }

  @ParameterizedTest
  @MethodSource("storages")
  void listsReadsAndDeletes(Storage storage) throws Exception {
    String log = dir.resolve("t/_delta_log").toString();
    for (String name : List.of("00000000000000000002.json", "00000000000000000000.json", "00000000000000000001.json")) {
      assertThat(storage.writeIfAbsent(log + "/" + name, name.getBytes(StandardCharsets.UTF_8))).isTrue();
    }
    storage.mkdirs(dir.resolve("t/sub").toString());

    assertThat(storage.listFrom(log, "00000000000000000001")).extracting(Storage.FileInfo::name)
        .containsExactly("00000000000000000001.json", "00000000000000000002.json");
    assertThat(storage.listFrom(dir.resolve("missing").toString(), "")).isEmpty();
    assertThat(storage.listDirectories(dir.resolve("t").toString())).extracting(path -> path.substring(path.lastIndexOf('/') + 1))
        .containsExactly("_delta_log", "sub");
    assertThat(storage.readRange(log + "/00000000000000000002.json", 5, 4)).isEqualTo("0000".getBytes(StandardCharsets.UTF_8));
    assertThat(storage.writeIfAbsent(log + "/00000000000000000002.json", new byte[1])).isFalse();
    assertThatThrownBy(() -> storage.readAll(log + "/00000000000000000009.json")).isInstanceOf(FileNotFoundException.class);
    assertThat(storage.delete(log + "/00000000000000000000.json")).isTrue();
    assertThat(storage.delete(log + "/00000000000000000000.json")).isFalse();
    assertThat(storage.exists(log + "/00000000000000000001.json")).isTrue();
  }
}
