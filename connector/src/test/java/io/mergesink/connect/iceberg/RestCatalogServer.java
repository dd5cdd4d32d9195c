package io.mergesink.connect.iceberg;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * An Iceberg REST catalog for the tests: the REST protocol's table and namespace routes served by
 * Iceberg's own {@link CatalogHandlers} (what Iceberg's test REST server runs, which Iceberg
 * publishes for no recent version) over a {@link JdbcCatalog}, so that the sink's {@code RESTCatalog}
 * client talks HTTP and JSON to the handlers every REST catalog implements the protocol with. A
 * commit that lost a race answers 409, as the protocol says, and the client retries it.
 */
final class RestCatalogServer implements AutoCloseable {
  private static final String PREFIX = "/v1/";

  private final JdbcCatalog catalog;
  private final HttpServer server;
  /** Configured as Iceberg's client configures its own (RESTObjectMapper, which is not public). */
  private final ObjectMapper json = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
      .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
      .setVisibility(PropertyAccessor.CREATOR, JsonAutoDetect.Visibility.ANY)
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
      .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);

  private RestCatalogServer(JdbcCatalog catalog) throws IOException {
    RESTSerializers.registerAll(json);
    this.catalog = catalog;
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * A server whose catalog keeps its tables in the JDBC database {@code jdbcUrl} (as catalog
   * {@code rest-backend}, beside any other JDBC catalog there), their files under {@code warehouse}.
   */
  static RestCatalogServer start(String jdbcUrl, String user, String password, String warehouse) throws IOException {
    return start("rest-backend", jdbcUrl, user, password, warehouse, Map.of());
  }

  /**
   * {@link #start(String, String, String, String)} with its tables as catalog {@code name} in the
   * database and more catalog properties (the server's own file IO).
   */
  static RestCatalogServer start(String name, String jdbcUrl, String user, String password, String warehouse,
      Map<String, String> more) throws IOException {
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    Map<String, String> properties = new java.util.HashMap<>(more);
    properties.putAll(Map.of("uri", jdbcUrl, "jdbc.user", user, "jdbc.password", password, "warehouse", warehouse));
    catalog.initialize(name, properties);
    return new RestCatalogServer(catalog);
  }

  String uri() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      respond(exchange);
    }
  }

  private void respond(HttpExchange exchange) throws IOException {
    try {
      String method = exchange.getRequestMethod();
      String[] path = Arrays.stream(exchange.getRequestURI().getRawPath().substring(PREFIX.length()).split("/"))
          .map(part -> URLDecoder.decode(part, StandardCharsets.UTF_8)).toArray(String[]::new);
      Object response = route(method, path, exchange);
      if (response == null) {
        exchange.sendResponseHeaders(204, -1);
      } else {
        send(exchange, 200, response);
      }
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      error(exchange, 404, e);
    } catch (AlreadyExistsException | CommitFailedException e) {
      error(exchange, 409, e);
    } catch (ValidationException | IllegalArgumentException e) {
      error(exchange, 400, e);
    } catch (RuntimeException e) {
      error(exchange, 500, e);
    }
  }

  private Object route(String method, String[] path, HttpExchange exchange) throws IOException {
    if (path[0].equals("config")) {
      return ConfigResponse.builder().build();
    }
    if (!path[0].equals("namespaces")) {
      throw new IllegalArgumentException("no route " + method + " " + String.join("/", path));
    }
    if (path.length == 1) {
      return method.equals("POST") ? CatalogHandlers.createNamespace(catalog, read(exchange, CreateNamespaceRequest.class))
          : CatalogHandlers.listNamespaces(catalog, Namespace.empty());
    }
    Namespace namespace = Namespace.of(path[1].split("\u001f"));
    if (path.length == 2) {
      if (method.equals("HEAD")) {
        CatalogHandlers.namespaceExists(catalog, namespace);
        return null;
      }
      return CatalogHandlers.loadNamespace(catalog, namespace);
    }
    if (path.length == 3) {
      return method.equals("POST") ? CatalogHandlers.createTable(catalog, namespace, read(exchange, CreateTableRequest.class))
          : CatalogHandlers.listTables(catalog, namespace);
    }
    TableIdentifier table = TableIdentifier.of(namespace, path[3]);
    if (path.length == 5 && path[4].equals("metrics")) {
      return null;
    }
    return switch (method) {
      case "HEAD" -> {
        CatalogHandlers.tableExists(catalog, table);
        yield null;
      }
      case "POST" -> CatalogHandlers.updateTable(catalog, table, read(exchange, UpdateTableRequest.class));
      default -> CatalogHandlers.loadTable(catalog, table, RESTCatalogProperties.SnapshotMode.ALL);
    };
  }

  private <T> T read(HttpExchange exchange, Class<T> type) throws IOException {
    return json.readValue(exchange.getRequestBody(), type);
  }

  private void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = json.writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void error(HttpExchange exchange, int status, RuntimeException e) throws IOException {
    if (status == 500) {
      e.printStackTrace();
    }
    send(exchange, status, ErrorResponse.builder().responseCode(status).withType(e.getClass().getSimpleName())
        .withMessage(e.getMessage()).build());
  }

  @Override
  public void close() throws IOException {
    server.stop(0);
    catalog.close();
  }
}
