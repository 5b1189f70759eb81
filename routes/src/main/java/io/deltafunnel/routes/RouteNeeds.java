package io.deltafunnel.routes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the user's own routes ({@code deltafunnel.routes}) need of the application's built-in baggage, read from the
 * route files' text: a SQL Server target (they name {@code deltafunnel-mssql}, the {@code sqlServer} bean or a
 * {@code deltafunnel.mssql.*} property), and the sample table (they use {@code deltafunnel.source.effective-path}).
 * A Java DSL class cannot be read this way: it is assumed to need both. The built-in route needs both.
 *
 * @param sqlServer whether the routes need the {@code sqlServer} DataSource (and, without a URL, the embedded endpoint)
 * @param sample    whether the routes read the sample table through {@code deltafunnel.source.effective-path}
 */
record RouteNeeds(boolean sqlServer, boolean sample) {

    static final RouteNeeds ALL = new RouteNeeds(true, true);

    /** The needs of {@code entries} (files, directories, {@code classpath:}/{@code file:} locations, classes). */
    static RouteNeeds of(List<String> entries) {
        if (entries.isEmpty()) {
            return ALL;
        }
        StringBuilder text = new StringBuilder();
        for (String entry : entries) {
            String t = read(entry);
            if (t == null) {
                return ALL; // a Java DSL class, or a location this cannot read: assume everything
            }
            text.append(t).append('\n');
        }
        String all = text.toString();
        String lower = all.toLowerCase(Locale.ROOT);
        return new RouteNeeds(lower.contains("deltafunnel-mssql") || all.contains("sqlServer")
                || lower.contains("deltafunnel.mssql."), lower.contains("deltafunnel.source.effective-path"));
    }

    private static String read(String entry) {
        try {
            String lower = entry.toLowerCase(Locale.ROOT);
            if (lower.startsWith("classpath:")) {
                String name = entry.substring("classpath:".length()).replaceFirst("^/", "");
                try (InputStream in = RouteNeeds.class.getClassLoader().getResourceAsStream(name)) {
                    return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            Path path = Path.of(lower.startsWith("file:") ? entry.substring("file:".length()) : entry);
            if (Files.isDirectory(path)) {
                StringBuilder sb = new StringBuilder();
                try (var files = Files.list(path)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        sb.append(Files.readString(f)).append('\n');
                    }
                }
                return sb.toString();
            }
            return Files.isRegularFile(path) ? Files.readString(path) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
