package io.mergesink.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown pages (README, docs/, module READMEs) leads to a file that exists,
 * and a link to a heading ({@code page.md#heading}) to a heading that page has, by GitHub's anchor rules.
 */
class DocumentationLinksTest {
  /** Surefire runs in the module directory. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<Path> pages = markdownPages();
    assertThat(pages).as("Markdown pages").contains(ROOT.resolve("README.md"), ROOT.resolve("docs/configuration.md"));
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (Path page : pages) {
      for (String target : links(page)) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
          continue; // http:, https:, mailto: ...
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
        } else if (hash >= 0 && resolved.toString().endsWith(".md")
            && !anchors.computeIfAbsent(resolved, DocumentationLinksTest::anchorsOf).contains(target.substring(hash + 1))) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  /** Every Markdown file of the repository but those under build output ({@code target}) and hidden directories. */
  private static List<Path> markdownPages() throws IOException {
    List<Path> pages = new ArrayList<>();
    Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        String name = dir.getFileName().toString();
        boolean skipped = !dir.equals(ROOT) && (name.startsWith(".") || name.equals("target"));
        return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (file.getFileName().toString().endsWith(".md")) {
          pages.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    pages.sort(null);
    return pages;
  }

  /** The link targets of a page, outside fenced code blocks. */
  private static List<String> links(Path page) throws IOException {
    List<String> targets = new ArrayList<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
      if (line.trim().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (!fenced) {
        Matcher matcher = LINK.matcher(line);
        while (matcher.find()) {
          targets.add(matcher.group(1));
        }
      }
    }
    return targets;
  }

  /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
  private static Set<String> anchorsOf(Path page) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    try {
      for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
        if (line.trim().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        Matcher heading = HEADING.matcher(line);
        if (fenced || !heading.matches()) {
          continue;
        }
        String slug = heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
        int repeat = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return anchors;
  }
}
