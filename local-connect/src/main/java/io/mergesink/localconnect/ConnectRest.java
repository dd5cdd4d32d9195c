package io.mergesink.localconnect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The Kafka Connect REST API of one worker, as a user's {@code curl} would use it: JSON in, JSON
 * out, the HTTP status checked. Requests fail with {@link IllegalStateException} naming the
 * request, status and body, so {@code Await} can retry them while a worker starts or rebalances.
 */
public final class ConnectRest {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public ConnectRest(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** {@code GET /}: the worker's version and Kafka cluster id. */
  public JsonNode serverInfo() {
    return send("GET", "/", null);
  }

  /** {@code GET /connector-plugins}. */
  public JsonNode plugins() {
    return send("GET", "/connector-plugins", null);
  }

  /** {@code PUT /connector-plugins/{plugin}/config/validate}: the per-option validation result. */
  public JsonNode validate(String plugin, Map<String, String> config) {
    return send("PUT", "/connector-plugins/" + plugin + "/config/validate", config);
  }

  /** {@code PUT /connectors/{name}/config}: creates or updates the connector. */
  public JsonNode putConnector(String name, Map<String, String> config) {
    return send("PUT", "/connectors/" + name + "/config", config);
  }

  /** {@code GET /connectors/{name}/status}. */
  public JsonNode status(String name) {
    return send("GET", "/connectors/" + name + "/status", null);
  }

  /** {@code POST /connectors/{name}/tasks/{task}/restart}. */
  public void restartTask(String name, int task) {
    send("POST", "/connectors/" + name + "/tasks/" + task + "/restart", null);
  }

  private JsonNode send(String method, String path, Object body) {
    String description = method + " " + baseUrl + path;
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT)
          .header("Accept", "application/json");
      if (body == null) {
        request.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        request.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
      }
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IllegalStateException(description + " answered " + response.statusCode() + ": " + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalStateException(description + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during " + description, e);
    }
  }
}
