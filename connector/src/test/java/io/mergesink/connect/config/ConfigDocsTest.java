package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.junit.jupiter.api.Test;

class ConfigDocsTest {
  /** Surefire runs in the module directory. */
  private static final Path COMMITTED = Path.of("CONFIGURATION.md");
  private static final Path REFERENCE_PAGE = Path.of("..", "docs", "configuration.md");
  private static final Path README = Path.of("..", "README.md");

  @Test
  void committedReferenceIsUpToDate() throws IOException {
    assertThat(Files.readString(COMMITTED, StandardCharsets.UTF_8))
        .as("regenerate with: connector/update-config-docs.sh")
        .isEqualTo(ConfigDocs.markdown());
  }

  @Test
  void docsReferenceIsUpToDate() throws IOException {
    String page = Files.readString(REFERENCE_PAGE, StandardCharsets.UTF_8);
    String start = "<!-- config-reference:start -->\n";
    String section = page.substring(page.indexOf(start) + start.length(), page.indexOf("<!-- config-reference:end -->"));
    String generated = ConfigDocs.markdown();
    assertThat(section).as("the options table of docs/configuration.md; regenerate with: connector/update-config-docs.sh")
        .isEqualTo(generated.substring(generated.indexOf("| Name |")));
  }

  /**
   * The README's short table of common options is written by hand: each option it names must exist, and a row of one
   * option must give the default the generated reference gives.
   */
  @Test
  void readmeNamesRealOptionsWithTheirDefaults() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    String heading = "## The options most users set\n";
    assertThat(readme).as("README.md").contains(heading);
    String rest = readme.substring(readme.indexOf(heading) + heading.length());
    List<String> rows = rest.lines().dropWhile(line -> !line.startsWith("|")).takeWhile(line -> line.startsWith("|"))
        .skip(2).toList();
    assertThat(rows).as("rows of the README's options table").isNotEmpty();
    Map<String, String> defaults = new HashMap<>();
    ConfigDocs.markdown().lines().filter(line -> line.startsWith("| `")).forEach(line -> {
      String[] cells = cells(line);
      defaults.put(cells[0].replace("`", ""), cells[2]);
    });
    for (String row : rows) {
      String[] cells = cells(row);
      Matcher names = Pattern.compile("`([^`]+)`").matcher(cells[0]);
      List<String> options = new ArrayList<>();
      while (names.find()) {
        options.add(names.group(1));
      }
      assertThat(options).as("options named in README row %s", row).isNotEmpty();
      for (String option : options) {
        assertThat(defaults).as("README names option %s", option).containsKey(option);
      }
      if (options.size() == 1) {
        assertThat(cells[1]).as("README default of %s", options.get(0)).isEqualTo(defaults.get(options.get(0)));
      }
    }
  }

  @Test
  void everyOptionHasDocGroupDisplayNameAndEveryEnumOrNumberAValidator() {
    for (ConfigKey key : MergeSinkConfig.CONFIG_DEF.configKeys().values()) {
      assertThat(key.documentation).as(key.name).isNotBlank();
      assertThat(key.group).as(key.name).isNotBlank();
      assertThat(key.displayName).as(key.name).isNotBlank();
      boolean needsValidator = switch (key.type) {
        case INT, LONG, DOUBLE -> true;
        case STRING -> key.recommender != null;
        default -> false;
      };
      if (needsValidator) {
        assertThat(key.validator).as(key.name).isNotNull();
      }
    }
    assertThat(ConfigDocs.markdown()).contains("| `merge.strategy` | string | `deletion-vectors` | "
        + "deletion-vectors, copy-on-write | high | Writes |");
  }

  private static String[] cells(String row) {
    String inner = row.substring(1, row.lastIndexOf('|'));
    return Arrays.stream(inner.split("(?<!\\\\)\\|", -1)).map(String::trim).toArray(String[]::new);
  }
}
