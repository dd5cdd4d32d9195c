package io.mergesink.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.storage.azure.AzureStorage;
import io.mergesink.core.storage.s3.S3Storage;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.core.testing.TestHdfs;
import io.mergesink.core.testing.TestS3;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the engine relies on from every {@link Storage}, above all that exactly one of many racing
 * writers creates a commit file, on real servers: local disk (java.nio, and Hadoop's local file
 * system), HDFS (MiniDFSCluster), S3 (S3Proxy) and Azure Blob Storage (Azurite).
 */
class StorageContractTest {
  private static final int RACERS = 16;
  private static final int ROUNDS = 12;
  private static final AtomicInteger NEXT = new AtomicInteger();
  private static final List<Storage> OPENED = new ArrayList<>();

  /**
   * A storage and a fresh directory of its kind, named for the test report; opened on first use, so
   * that a server which cannot start (Azurite without Node.js) skips or fails only its own tests.
   */
  static final class Backend {
    private final String name;
    private final Supplier<Storage> opener;
    private final Supplier<String> rootMaker;
    private Storage storage;
    private String root;

    Backend(String name, Supplier<Storage> opener, Supplier<String> rootMaker) {
      this.name = name;
      this.opener = opener;
      this.rootMaker = rootMaker;
    }

    Backend(String name, Storage storage, String root) {
      this(name, () -> storage, () -> root);
    }

    synchronized Storage storage() {
      if (storage == null) {
        storage = opener.get();
        synchronized (OPENED) {
          OPENED.add(storage);
        }
      }
      return storage;
    }

    synchronized String root() {
      if (root == null) {
        root = rootMaker.get();
      }
      return root;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Backend> backends() throws IOException {
    int n = NEXT.incrementAndGet();
    Path local = Files.createTempDirectory("mergesink-storage-");
    Configuration hdfsConf = TestHdfs.hdfs().getConfiguration(0);
    Map<String, String> hdfs = Map.of("fs.defaultFS", hdfsConf.get("fs.defaultFS"));
    S3Storage s3 = S3Storage.create(TestS3.s3Options());
    String azureRoot = "wasbs://contract-" + n + "@" + TestAzurite.ACCOUNT + ".blob.core.windows.net/tables";
    return Stream.of(
        new Backend("local", new LocalStorage(), local.resolve("java").toString()),
        new Backend("hadoop-local", HadoopStorage.withDefaults(), local.resolve("hadoop").toString()),
        new Backend("hdfs", Storages.forRoot(TestHdfs.hdfsRoot("contract-" + n), hdfs), TestHdfs.hdfsRoot("contract-" + n)),
        new Backend("s3", s3, TestS3.s3Root("contract-" + n)),
        new Backend("azure", () -> AzureStorage.create(azureRoot, TestAzurite.azureOptions()), () -> {
          TestAzurite.createContainer("contract-" + n);
          return azureRoot;
        }));
  }

  @AfterAll
  static void closeStorages() {
    synchronized (OPENED) {
      OPENED.forEach(Storage::close);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void exactlyOneOfSixteenRacersCreatesEachVersion(Backend backend) throws Exception {
    Storage storage = backend.storage();
    String log = backend.root() + "/_delta_log";
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        String path = log + "/" + String.format("%020d.json", round);
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
          winners += result.get(60, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertThat(winners).as("winners of version %d", round).isEqualTo(1);
        String content = new String(storage.readAll(path), StandardCharsets.UTF_8);
        assertThat(content).as("one writer's whole content").isEqualTo(content.substring(0, content.indexOf('\n') + 1).repeat(1000));
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(storage.listFrom(log, "")).extracting(Storage.FileInfo::name).as("no temporary files left")
        .hasSize(ROUNDS).allMatch(name -> name.endsWith(".json"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void listsReadsAndDeletes(Backend backend) throws Exception {
    Storage storage = backend.storage();
    String root = backend.root();
    String log = root + "/t/_delta_log";
    for (String name : List.of("00000000000000000002.json", "00000000000000000000.json", "00000000000000000001.json")) {
      assertThat(storage.writeIfAbsent(log + "/" + name, name.getBytes(StandardCharsets.UTF_8))).isTrue();
    }
    write(storage, root + "/t/sub/part-0.parquet", new byte[10]);

    assertThat(storage.listFrom(log, "00000000000000000001")).extracting(Storage.FileInfo::name)
        .containsExactly("00000000000000000001.json", "00000000000000000002.json");
    assertThat(storage.listFrom(log, "")).extracting(Storage.FileInfo::size).containsExactly(25L, 25L, 25L);
    assertThat(storage.listFrom(root + "/missing", "")).isEmpty();
    assertThat(storage.listDirectories(root + "/t")).extracting(path -> path.substring(path.lastIndexOf('/') + 1))
        .containsExactly("_delta_log", "sub");
    assertThat(storage.listRecursive(root + "/t")).extracting(Storage.FileInfo::name)
        .containsExactly("_delta_log/00000000000000000000.json", "_delta_log/00000000000000000001.json",
            "_delta_log/00000000000000000002.json", "sub/part-0.parquet");
    assertThat(storage.readRange(log + "/00000000000000000002.json", 5, 4)).isEqualTo("0000".getBytes(StandardCharsets.UTF_8));
    assertThat(storage.writeIfAbsent(log + "/00000000000000000002.json", new byte[1])).isFalse();
    assertThat(storage.readAll(log + "/00000000000000000002.json")).asString(StandardCharsets.UTF_8)
        .isEqualTo("00000000000000000002.json");
    assertThatThrownBy(() -> storage.readAll(log + "/00000000000000000009.json")).isInstanceOf(FileNotFoundException.class);
    assertThat(storage.exists(log + "/00000000000000000001.json")).isTrue();
    assertThat(storage.exists(log + "/00000000000000000009.json")).isFalse();
    assertThat(storage.delete(log + "/00000000000000000000.json")).isTrue();
    assertThat(storage.exists(log + "/00000000000000000000.json")).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void streamsAFileLargerThanAnUploadPart(Backend backend) throws Exception {
    Storage storage = backend.storage();
    String path = backend.root() + "/big/part-0.parquet";
    byte[] content = new byte[12 * 1024 * 1024 + 17];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31 + (i >>> 13));
    }
    RequestCounts before = storage.requests();
    try (OutputStream out = storage.create(path)) {
      for (int offset = 0; offset < content.length; offset += 100_000) {
        out.write(content, offset, Math.min(100_000, content.length - offset));
      }
    }
    RequestCounts upload = storage.requests().minus(before);

    assertThat(storage.readAll(path)).isEqualTo(content);
    assertThat(storage.readRange(path, 7 * 1024 * 1024, 1000)).isEqualTo(Arrays.copyOfRange(content, 7 * 1024 * 1024, 7 * 1024 * 1024 + 1000));
    if (storage instanceof S3Storage) {
      // create, three 5 MiB parts (the last one short), complete
      assertThat(upload.get(RequestKind.MULTIPART)).as("multipart requests %s", upload).isEqualTo(5);
      assertThat(upload.total()).as("requests %s", upload).isEqualTo(5);
    }
    if (storage instanceof AzureStorage) {
      // three 5 MiB blocks (the last one short), the block list
      assertThat(upload.get(RequestKind.MULTIPART)).as("block requests %s", upload).isEqualTo(4);
      assertThat(upload.total()).as("requests %s", upload).isEqualTo(4);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void aPendingFileAppearsWholeOnPublishAndNeverWhenDiscarded(Backend backend) throws Exception {
    Storage storage = backend.storage();
    String dir = backend.root() + "/_delta_log";
    byte[] large = new byte[11 * 1024 * 1024];
    Arrays.fill(large, (byte) 'a');
    String path = dir + "/00000000000000000010.checkpoint.parquet";

    try (PendingFile discarded = storage.createPending(path)) {
      discarded.stream().write(large);
      // closed without publish: a writer that failed half-way
    }
    assertThat(storage.exists(path)).as("a discarded file").isFalse();

    try (PendingFile first = storage.createPending(path)) {
      first.stream().write(large);
      assertThat(storage.exists(path)).as("visible before publish").isFalse();
      assertThat(first.publish()).isTrue();
    }
    byte[] other = Arrays.copyOf(large, large.length);
    Arrays.fill(other, (byte) 'b');
    try (PendingFile second = storage.createPending(path)) {
      second.stream().write(other);
      assertThat(second.publish()).as("publish onto an existing file").isFalse();
    }
    try (PendingFile small = storage.createPending(path)) {
      small.stream().write(new byte[] {1, 2, 3});
      assertThat(small.publish()).as("a small publish onto an existing file").isFalse();
    }
    assertThat(storage.readAll(path)).as("the first file, whole").isEqualTo(large);
    assertThat(storage.listFrom(dir, "")).extracting(Storage.FileInfo::name).as("no temporary files left")
        .containsExactly("00000000000000000010.checkpoint.parquet");
  }

  /** Object stores only: local and HDFS listings read the whole directory whatever the start name (a table open looks names up there). */
  static Stream<Backend> objectStores() throws IOException {
    return backends().filter(backend -> backend.toString().equals("s3") || backend.toString().equals("azure"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("objectStores")
  void anObjectStoreListingFromANameCostsTheNamesAfterIt(Backend backend) throws Exception {
    Storage storage = backend.storage();
    String log = backend.root() + "/long/_delta_log";
    int commits = 1_010;
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> writes = new ArrayList<>();
      for (int version = 0; version < commits; version++) {
        String path = log + "/" + String.format("%020d.json", version);
        writes.add(pool.submit(() -> storage.writeIfAbsent(path, new byte[] {'{', '}'})));
      }
      for (Future<Boolean> write : writes) {
        assertThat(write.get(60, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
    RequestCounts before = storage.requests();
    List<Storage.FileInfo> tail = storage.listFrom(log, String.format("%020d", 1_000));
    RequestCounts listing = storage.requests().minus(before);

    assertThat(tail).extracting(Storage.FileInfo::name).hasSize(10).first().isEqualTo(String.format("%020d.json", 1_000));
    assertThat(listing.get(RequestKind.LIST)).as("one page, not the %d names before it", commits).isEqualTo(1);
    assertThat(storage.listFrom(log, "")).hasSize(commits);
  }

  private static void write(Storage storage, String path, byte[] content) throws IOException {
    try (OutputStream out = storage.create(path)) {
      out.write(content);
    }
  }
}
