package io.deltafunnel.routes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The one-file Maven repository inside the jar: {@code org.apache.camel:camel-dependencies:pom}, which KameletMain's
 * downloader reads at every start (the versions of Camel's dependencies). Extracted at start into a temporary
 * directory in Maven layout, deleted when the JVM exits, and asked first, so a start never needs a repository.
 */
final class BundledRepository {

    static final String ROOT = "META-INF/deltafunnel/repository/";

    private BundledRepository() {
    }

    /** The {@code file:} URL of the extracted repository; null when the jar carries none (never in a build). */
    static String extract(String camelVersion) {
        String path = "org/apache/camel/camel-dependencies/" + camelVersion + "/camel-dependencies-" + camelVersion
                      + ".pom";
        try (InputStream in = BundledRepository.class.getClassLoader().getResourceAsStream(ROOT + path)) {
            if (in == null) {
                return null;
            }
            Path dir = Files.createTempDirectory("deltafunnel-repository");
            Path file = dir.resolve(path);
            Files.createDirectories(file.getParent());
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            // deleteOnExit deletes in reverse order of registration: the file first, then its directories
            List<Path> chain = new ArrayList<>();
            for (Path p = file; p != null && p.startsWith(dir); p = p.getParent()) {
                chain.add(0, p);
            }
            chain.forEach(p -> p.toFile().deleteOnExit());
            return dir.toUri().toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the bundled camel-dependencies pom", e);
        }
    }
}
