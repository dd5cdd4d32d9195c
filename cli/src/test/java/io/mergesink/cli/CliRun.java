package io.mergesink.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One command line run through {@link MergeSinkCli#run}, as the tests see it: exit code, stdout, stderr. */
record CliRun(int code, String out, String err) {
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = MergeSinkCli.run(args, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(code, out.toString(), err.toString());
  }
}
