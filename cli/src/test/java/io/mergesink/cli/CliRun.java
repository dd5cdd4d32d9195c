package io.mergesink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;

/** One command line run through {@link MergeSinkCli#run}, as the tests see it: exit code, stdout, stderr. */
record CliRun(int code, String out, String err) {
  private static final ObjectMapper JSON = new ObjectMapper();

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = MergeSinkCli.run(args, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(code, out.toString(), err.toString());
  }

  /** The JSON document a command line that succeeds prints. */
  static JsonNode json(String... args) throws JsonProcessingException {
    CliRun result = of(args);
    assertThat(result.code()).as(result.err()).isZero();
    return JSON.readTree(result.out());
  }
}
