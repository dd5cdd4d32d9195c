package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.junit.jupiter.api.Test;

class ConfigDocsTest {
  /** Surefire runs in the module directory. */
  private static final Path COMMITTED = Path.of("CONFIGURATION.md");

  @Test
  void committedReferenceIsUpToDate() throws IOException {
    assertThat(Files.readString(COMMITTED, StandardCharsets.UTF_8))
        .as("regenerate with: connector/update-config-docs.sh")
        .isEqualTo(ConfigDocs.markdown());
  }

  @Test
  void readmeReferenceIsUpToDate() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    String start = "<!-- config-reference:start -->\n";
    String section = readme.substring(readme.indexOf(start) + start.length(), readme.indexOf("<!-- config-reference:end -->"));
    String generated = ConfigDocs.markdown();
    assertThat(section).as("the options table of README.md; regenerate with: connector/update-config-docs.sh")
        .isEqualTo(generated.substring(generated.indexOf("| Name |")));
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
}
