package io.mergesink.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.mergesink.connect.json.DebeziumJsonConverter;
import io.mergesink.core.storage.Storages;
import io.mergesink.core.storage.azure.AzureLocation;
import io.mergesink.core.testing.TestAzurite;
import io.mergesink.core.testing.TestS3;
import io.mergesink.ingest.config.AzureStoreOptions;
import io.mergesink.ingest.config.S3StoreOptions;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the deploy files users start from (config/, docker/) without Docker: every sink file
 * passes the connector's own validation, the source file has what Debezium needs, and the files
 * agree with each other (names, paths, versions, the tables volume). The repository root is the
 * parent of the module directory, where Maven runs the tests.
 */
class DeployFilesTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
  private static final Path CONFIG = ROOT.resolve("config");
  private static final Path DOCKER = ROOT.resolve("docker");
  private static final Path COMPOSE_FILE = DOCKER.resolve("docker-compose.yml");
  private static final Path DOCKERFILE = DOCKER.resolve("Dockerfile");
  private static final Path REGISTER_SCRIPT = DOCKER.resolve("register-connectors.sh");
  private static final String SINK_CLASS = MergeSinkConnector.class.getName();
  private static final String FAST_JSON_CONVERTER = DebeziumJsonConverter.class.getName();
  private static final String SOURCE_CLASS = "io.debezium.connector.postgresql.PostgresConnector";
  private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void repositoryRootIsFound() {
    assertThat(ROOT.resolve("pom.xml")).isRegularFile();
    assertThat(ROOT.resolve("connector/pom.xml")).isRegularFile();
  }

  /**
   * Validated like the REST API does: the worker adds {@code name} from the URL of
   * {@code PUT /connectors/NAME/config}, and NAME is the file name. A local table.root (/data/tables, a
   * directory of the container) is replaced by a temp dir, because validation checks that a
   * local table.root can be created by the current user; an S3 file's endpoint (the compose
   * service) by a real S3 server with the file's bucket, keys and region, because validation
   * probes the bucket; an Azure file's endpoint by Azurite with the file's container and SAS token.
   */
  @Test
  void everySinkFilePassesTheConnectorsValidation(@TempDir Path tables) {
    Map<String, Map<String, String>> sinks = connectorFiles(SINK_CLASS);
    assertThat(sinks).containsOnlyKeys("mergesink-upsert", "mergesink-audit", "mergesink-cow", "mergesink-s3", "mergesink-azure",
        "mergesink-iceberg", "mergesink-hive", "mergesink-paimon");

    sinks.forEach((name, file) -> {
      Map<String, String> props = new HashMap<>(file);
      props.put("name", name);
      if (Storages.isS3(file.get("table.root"))) {
        TestS3.s3().createBucket(Storages.s3Bucket(file.get("table.root")));
        props.put(S3StoreOptions.ENDPOINT, TestS3.s3().endpoint());
      } else if (Storages.isAzure(file.get("table.root"))) {
        TestAzurite.createContainer(AzureLocation.parse(file.get("table.root")).container());
        props.put(AzureStoreOptions.ENDPOINT, TestAzurite.azurite().accountEndpoint().toString());
      } else {
        props.put("table.root", tables.resolve("data/tables").toString());
      }
      List<String> errors = new ArrayList<>();
      for (ConfigValue value : new MergeSinkConnector().validate(props).configValues()) {
        value.errorMessages().forEach(message -> errors.add(value.name() + ": " + message));
      }
      assertThat(errors).as("validation errors of config/%s.json", name).isEmpty();
      // Debezium writes JsonConverter's JSON with schemas; a sink reads it with JsonConverter or MergeSink's drop-in for it
      assertThat(file.get("key.converter")).as(name).isIn(JSON_CONVERTER, FAST_JSON_CONVERTER);
      assertThat(file.get("value.converter")).as(name).isIn(JSON_CONVERTER, FAST_JSON_CONVERTER);
      assertThat(file).as(name).containsEntry("key.converter.schemas.enable", "true").containsEntry("value.converter.schemas.enable", "true");
    });
    assertThat(sinks.get("mergesink-upsert")).containsEntry("key.converter", FAST_JSON_CONVERTER)
        .containsEntry("value.converter", FAST_JSON_CONVERTER);

    assertThat(sinks.get("mergesink-upsert")).containsEntry("write.mode", "upsert")
        .containsEntry("merge.strategy", "deletion-vectors");
    assertThat(sinks.get("mergesink-audit")).containsEntry("write.mode", "append");
    assertThat(sinks.get("mergesink-cow")).containsEntry("write.mode", "upsert")
        .containsEntry("merge.strategy", "copy-on-write");
    assertThat(sinks.get("mergesink-s3")).containsEntry("write.mode", "upsert")
        .containsEntry("merge.strategy", "deletion-vectors");
    assertThat(sinks.get("mergesink-azure")).containsEntry("write.mode", "upsert")
        .containsEntry("merge.strategy", "deletion-vectors");
    assertThat(sinks.get("mergesink-iceberg")).containsEntry("write.mode", "upsert").containsEntry("table.format", "iceberg")
        .containsEntry("table.name.format", "iceberg/${source.table}");
    assertThat(sinks.get("mergesink-paimon")).containsEntry("write.mode", "upsert").containsEntry("table.format", "paimon")
        .containsEntry("table.name.format", "paimon/${source.table}");
  }

  /** The Hive sink registers its tables in the compose file's metastore, which sees them at the worker's paths. */
  @Test
  void theHiveSinkRegistersInTheComposeFilesMetastore() throws IOException {
    Map<String, String> hive = connectorFiles(SINK_CLASS).get("mergesink-hive");
    assertThat(hive).containsEntry("catalog.type", "hive").containsEntry("catalog.uri", "thrift://hive-metastore:9083");
    JsonNode metastore = compose().path("services").path("hive-metastore");
    assertThat(metastore.path("environment").path("SERVICE_NAME").asText()).isEqualTo("metastore");
    assertThat(strings(metastore.path("ports"))).contains("9083:9083");
    assertThat(strings(metastore.path("volumes"))).contains("tables:/data/tables");
    assertThat(compose().path("services").path("connect").path("depends_on").has("hive-metastore")).isTrue();
  }

  /** The S3 sink reaches the compose file's S3 service with its keys, and the service makes the bucket. */
  @Test
  void theS3SinkMatchesTheComposeS3Service() throws IOException {
    Map<String, String> sink = connectorFiles(SINK_CLASS).get("mergesink-s3");
    JsonNode s3 = compose().path("services").path("s3");
    java.net.URI endpoint = java.net.URI.create(sink.get(S3StoreOptions.ENDPOINT));
    assertThat(endpoint.getHost()).isEqualTo("s3");
    assertThat(s3.path("environment").path("S3PROXY_ENDPOINT").asText()).endsWith(":" + endpoint.getPort());
    assertThat(s3.path("environment").path("S3PROXY_IDENTITY").asText()).isEqualTo(sink.get(S3StoreOptions.ACCESS_KEY_ID));
    assertThat(s3.path("environment").path("S3PROXY_CREDENTIAL").asText()).isEqualTo(sink.get(S3StoreOptions.SECRET_ACCESS_KEY));
    String basedir = s3.path("environment").path("JCLOUDS_FILESYSTEM_BASEDIR").asText();
    assertThat(strings(s3.path("entrypoint"))).anySatisfy(part ->
        assertThat(part).contains("mkdir -p " + basedir + "/" + Storages.s3Bucket(sink.get("table.root"))));
    assertThat(strings(s3.path("volumes"))).contains("s3:" + basedir);
    assertThat(compose().path("services").path("connect").path("depends_on").has("s3")).isTrue();
    assertThat(compose().path("volumes").has("s3")).isTrue();
  }

  /** The Azure sink reaches the compose file's Azurite, whose one-shot service creates the sink's container with its SAS token. */
  @Test
  void theAzureSinkMatchesTheComposeAzuriteService() throws IOException {
    Map<String, String> sink = connectorFiles(SINK_CLASS).get("mergesink-azure");
    AzureLocation root = AzureLocation.parse(sink.get("table.root"));
    java.net.URI endpoint = java.net.URI.create(sink.get(AzureStoreOptions.ENDPOINT));
    assertThat(endpoint.getHost()).isEqualTo("azurite");
    assertThat(endpoint.getPath()).isEqualTo("/" + root.account());
    JsonNode azurite = compose().path("services").path("azurite");
    assertThat(strings(azurite.path("command"))).contains(String.valueOf(endpoint.getPort()));
    String containerUrl = compose().path("services").path("azure-container").path("environment").path("AZURE_CONTAINER_URL").asText();
    assertThat(containerUrl).isEqualTo(sink.get(AzureStoreOptions.ENDPOINT) + "/" + root.container() + "?restype=container&"
        + sink.get(AzureStoreOptions.SAS_TOKEN));
    assertThat(compose().path("services").path("connect").path("depends_on").has("azure-container")).isTrue();
    assertThat(compose().path("volumes").has("azurite")).isTrue();
  }

  @Test
  void sinkTablesOfDifferentConnectorsNeverCoincide() {
    List<String> roots = connectorFiles(SINK_CLASS).values().stream()
        .map(file -> file.get("table.root") + "/" + file.get("table.name.format")).toList();
    assertThat(roots).doesNotHaveDuplicates();
  }

  @Test
  void sourceFileHasWhatDebeziumNeedsAndMatchesTheStack() throws IOException {
    Map<String, Map<String, String>> sources = connectorFiles(SOURCE_CLASS);
    assertThat(sources).containsOnlyKeys("debezium-postgres-source");
    Map<String, String> source = sources.get("debezium-postgres-source");

    assertThat(source).containsKeys("database.hostname", "database.port", "database.user", "database.password",
        "database.dbname", "topic.prefix", "slot.name", "publication.name")
        .containsEntry("plugin.name", "pgoutput")
        .containsEntry("decimal.handling.mode", "precise")
        .containsEntry("time.precision.mode", "adaptive_time_microseconds")
        .containsEntry("key.converter", JSON_CONVERTER).containsEntry("key.converter.schemas.enable", "true")
        .containsEntry("value.converter", JSON_CONVERTER).containsEntry("value.converter.schemas.enable", "true")
        .containsEntry("topic.creation.default.replication.factor", "1");

    JsonNode postgres = compose().path("services").path("postgres");
    assertThat(source.get("database.hostname")).isEqualTo("postgres");
    assertThat(postgres.path("command").asText()).contains("wal_level=logical");
    assertThat(source.get("database.dbname")).isEqualTo(postgres.path("environment").path("POSTGRES_DB").asText());
    String initSql = Files.readString(DOCKER.resolve("postgres/init.sql"));
    assertThat(initSql).contains("CREATE ROLE " + source.get("database.user") + " WITH LOGIN REPLICATION PASSWORD '"
        + source.get("database.password") + "'");

    String customersTopic = source.get("topic.prefix") + ".public.customers";
    connectorFiles(SINK_CLASS).forEach((name, sink) ->
        assertThat(customersTopic).as("a topic of the source that %s reads", name).matches(sink.get("topics.regex")));
  }

  @Test
  void sinkTablesLiveInTheComposeTablesVolume() throws IOException {
    List<String> volumes = strings(compose().path("services").path("connect").path("volumes"));
    assertThat(volumes).anySatisfy(volume -> assertThat(volume).startsWith("tables:"));
    String mountPoint = volumes.stream().filter(volume -> volume.startsWith("tables:")).findFirst().orElseThrow()
        .split(":")[1];
    connectorFiles(SINK_CLASS).forEach((name, sink) -> {
      if (!Storages.isS3(sink.get("table.root")) && !Storages.isAzure(sink.get("table.root"))) {
        assertThat(sink.get("table.root")).as("table.root of %s", name).isEqualTo(mountPoint);
      }
    });
    assertThat(compose().path("volumes").has("tables")).isTrue();
  }

  @Test
  void theRegisterServiceRegistersEveryConnectorFile() throws IOException {
    Matcher defaults = Pattern.compile("CONNECTORS=\"\\$\\{CONNECTORS:-([^}]*)}\"").matcher(Files.readString(REGISTER_SCRIPT));
    assertThat(defaults.find()).as("default connector list in %s", REGISTER_SCRIPT).isTrue();
    List<String> registered = List.of(defaults.group(1).trim().split("\\s+"));
    assertThat(registered).containsExactlyInAnyOrderElementsOf(connectorFiles(null).keySet());

    JsonNode register = compose().path("services").path("register");
    assertThat(strings(register.path("volumes"))).contains("../config:/config:ro",
        "./register-connectors.sh:/register-connectors.sh:ro");
    assertThat(register.path("environment").path("CONFIG_DIR").asText()).isEqualTo("/config");
  }

  @Test
  void everyPathTheComposeFileReferencesExists() throws IOException {
    JsonNode services = compose().path("services");
    List<Path> referenced = new ArrayList<>();
    services.forEach(service -> {
      for (String volume : strings(service.path("volumes"))) {
        String source = volume.split(":")[0];
        if (source.startsWith(".") || source.startsWith("/")) {
          referenced.add(DOCKER.resolve(source).normalize());
        }
      }
      for (String envFile : strings(service.path("env_file"))) {
        referenced.add(DOCKER.resolve(envFile).normalize());
      }
      JsonNode build = service.path("build");
      if (!build.isMissingNode()) {
        Path context = DOCKER.resolve(build.path("context").asText(".")).normalize();
        referenced.add(context);
        referenced.add(context.resolve(build.path("dockerfile").asText("Dockerfile")).normalize());
      }
    });
    assertThat(referenced).isNotEmpty().allSatisfy(path -> assertThat(path).exists());
    assertThat(services.path("connect").path("build").path("context").asText()).isEqualTo("..");
    assertThat(services.path("connect").path("build").path("dockerfile").asText()).isEqualTo("docker/Dockerfile");
  }

  /**
   * COPY sources are relative to the build context, the repository root. The plugin directory is
   * a build output ({@code ./mvnw package}; unit tests run before it exists), so for it the test
   * checks the name the assembly gives it instead: {@code <artifactId>-<version>-plugin}.
   */
  @Test
  void everyDockerfileCopySourceExistsOrIsThePluginDirectory() throws IOException {
    List<List<String>> copies = dockerfileInstructions("COPY");
    assertThat(copies).isNotEmpty();
    String pluginDir = "connector/target/mergesink-connector-" + new MergeSinkConnector().version() + "-plugin/";
    for (List<String> copy : copies) {
      if (copy.get(0).startsWith("--from=")) {
        continue;
      }
      for (String source : copy.subList(0, copy.size() - 1)) {
        if (source.startsWith("connector/target/")) {
          assertThat(source).as("plugin directory built by ./mvnw package").isEqualTo(pluginDir);
        } else {
          assertThat(ROOT.resolve(source)).as("COPY source in %s", DOCKERFILE).exists();
        }
      }
    }
    assertThat(Files.readString(ROOT.resolve("connector/src/assembly/plugin-dir.xml"))).contains("<id>plugin</id>");
  }

  @Test
  void workerFileDockerfileAndComposeAgree() throws IOException {
    Properties worker = new Properties();
    worker.load(new StringReader(Files.readString(CONFIG.resolve("connect-distributed.properties"))));
    assertThat(worker.getProperty("plugin.path")).isEqualTo("/opt/connect-plugins");
    assertThat(worker.getProperty("bootstrap.servers")).isEqualTo("kafka:9092");
    assertThat(worker.getProperty("key.converter")).isEqualTo(JSON_CONVERTER);
    assertThat(worker.getProperty("value.converter")).isEqualTo(JSON_CONVERTER);
    for (String topic : List.of("config", "offset", "status")) {
      assertThat(worker.getProperty(topic + ".storage.topic")).isNotBlank();
      assertThat(worker.getProperty(topic + ".storage.replication.factor")).isEqualTo("1");
    }

    String workerFileInImage = "/opt/kafka/config/connect-mergesink.properties";
    assertThat(dockerfileInstructions("COPY")).anySatisfy(copy ->
        assertThat(copy).containsExactly("config/connect-distributed.properties", workerFileInImage));
    assertThat(dockerfileInstructions("COPY")).anySatisfy(copy ->
        assertThat(copy.get(copy.size() - 1)).startsWith(worker.getProperty("plugin.path") + "/mergesink-connector"));
    assertThat(Files.readString(DOCKERFILE)).contains("ENTRYPOINT [\"/opt/kafka/bin/connect-distributed.sh\", \""
        + workerFileInImage + "\"]");
    assertThat(strings(compose().path("services").path("connect").path("volumes")))
        .contains("../config/connect-distributed.properties:" + workerFileInImage + ":ro");
  }

  /** The image runs the Kafka and Debezium versions the build tests against. */
  @Test
  void imageVersionsMatchTheBuild() throws IOException {
    Map<String, String> args = dockerfileArgs();
    assertThat(args.get("KAFKA_VERSION")).isEqualTo(AppInfoParser.getVersion());
    assertThat(args.get("DEBEZIUM_VERSION")).isEqualTo(io.debezium.connector.postgresql.Module.version());
    assertThat(args.get("MERGESINK_VERSION")).isEqualTo(new MergeSinkConnector().version());
    assertThat(compose().path("services").path("kafka").path("image").asText())
        .isEqualTo("apache/kafka:" + AppInfoParser.getVersion());
  }

  /** Connector files by name (file name without .json), of one connector class or (null) all. */
  private static Map<String, Map<String, String>> connectorFiles(String connectorClass) {
    Map<String, Map<String, String>> files = new LinkedHashMap<>();
    try (Stream<Path> paths = Files.list(CONFIG)) {
      for (Path path : paths.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        Map<String, String> config = flatStringMap(path);
        if (connectorClass == null || connectorClass.equals(config.get("connector.class"))) {
          files.put(path.getFileName().toString().replaceFirst("\\.json$", ""), config);
        }
      }
    } catch (IOException e) {
      throw new AssertionError("cannot read " + CONFIG, e);
    }
    return files;
  }

  /** A connector file must be the flat string map that {@code PUT /connectors/NAME/config} takes. */
  private static Map<String, String> flatStringMap(Path file) throws IOException {
    JsonNode root = JSON.readTree(file.toFile());
    assertThat(root.isObject()).as("%s is a JSON object", file).isTrue();
    assertThat(root.has("config")).as("%s is a flat config map, not {name, config}", file).isFalse();
    assertThat(root.has("connector.class")).as("%s names connector.class", file).isTrue();
    Map<String, String> config = new LinkedHashMap<>();
    root.fields().forEachRemaining(field -> {
      assertThat(field.getValue().isTextual()).as("%s: value of %s is a string", file, field.getKey()).isTrue();
      config.put(field.getKey(), field.getValue().asText());
    });
    return config;
  }

  private static JsonNode compose() throws IOException {
    return YAML.readTree(COMPOSE_FILE.toFile());
  }

  private static List<String> strings(JsonNode node) {
    List<String> values = new ArrayList<>();
    if (node.isTextual()) {
      values.add(node.asText());
    }
    node.forEach(element -> values.add(element.asText()));
    return values;
  }

  /** The arguments of every Dockerfile instruction {@code keyword}, with ARG defaults substituted. */
  private static List<List<String>> dockerfileInstructions(String keyword) throws IOException {
    Map<String, String> args = dockerfileArgs();
    List<List<String>> instructions = new ArrayList<>();
    for (String line : dockerfileLines()) {
      String[] words = line.trim().split("\\s+");
      if (words[0].equals(keyword)) {
        List<String> arguments = new ArrayList<>();
        for (int i = 1; i < words.length; i++) {
          String word = words[i];
          for (Map.Entry<String, String> arg : args.entrySet()) {
            word = word.replace("${" + arg.getKey() + "}", arg.getValue());
          }
          arguments.add(word);
        }
        instructions.add(arguments);
      }
    }
    return instructions;
  }

  private static Map<String, String> dockerfileArgs() throws IOException {
    Map<String, String> args = new HashMap<>();
    for (String line : dockerfileLines()) {
      Matcher arg = Pattern.compile("^ARG\\s+(\\w+)=(\\S+)$").matcher(line.trim());
      if (arg.matches()) {
        args.put(arg.group(1), arg.group(2));
      }
    }
    return args;
  }

  /** Instructions one per line: comments dropped, backslash continuations joined. */
  private static List<String> dockerfileLines() throws IOException {
    List<String> lines = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : Files.readAllLines(DOCKERFILE)) {
      if (line.trim().startsWith("#")) {
        continue;
      }
      if (line.endsWith("\\")) {
        current.append(line, 0, line.length() - 1).append(' ');
        continue;
      }
      current.append(line);
      if (!current.toString().isBlank()) {
        lines.add(current.toString());
      }
      current.setLength(0);
    }
    return lines;
  }
}
