package io.deltafunnel.routes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The YAML blocks of a Markdown page, verbatim, as the docs tests run them. */
final class DocsYaml {

    private DocsYaml() {
    }

    /** The repository's README.md (failsafe and surefire run in routes/). */
    static Path readme() {
        return Path.of(System.getProperty("deltafunnel.readme", "../README.md"));
    }

    /** docs/interop.md. */
    static Path interop() {
        return readme().toAbsolutePath().getParent().resolve("docs/interop.md");
    }

    /**
     * The first {@code count} {@code ```yaml} blocks after the line {@code heading} (a section's heading, or any line
     * that starts a part of the page), verbatim.
     */
    static List<String> blocks(Path page, String heading, int count) throws IOException {
        String text = Files.readString(page);
        int at = heading == null ? 0 : text.indexOf(heading);
        assertTrue(at >= 0, heading + " not found in " + page);
        List<String> out = new ArrayList<>();
        while (out.size() < count) {
            int start = text.indexOf("```yaml\n", at);
            assertTrue(start >= 0, "only " + out.size() + " YAML blocks after " + heading + " in " + page);
            int end = text.indexOf("```", start + 8);
            out.add(text.substring(start + "```yaml\n".length(), end));
            at = end + 3;
        }
        return out;
    }
}
