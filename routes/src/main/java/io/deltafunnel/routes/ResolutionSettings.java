package io.deltafunnel.routes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Function;

/**
 * Where the application finds the Camel components (and other jars) that it does not bundle, read before Camel
 * starts (reference: {@code docs/application.md}, "Any Camel component").
 *
 * @param repositories  {@code deltafunnel.repositories}: Maven repositories (URLs, or local directories in Maven
 *                      layout, turned into {@code file:} URLs) asked for missing artifacts; empty: Maven Central
 * @param mavenCentral  {@code deltafunnel.maven-central}: whether Maven Central is asked too; {@code auto} (default):
 *                      only when no repository is configured, so that a configured mirror or local repository is
 *                      the only place asked (air-gapped sites)
 * @param libDir        {@code deltafunnel.lib-dir}: a directory of jars put on the class path as they are (offline);
 *                      null when not set
 * @param dependencies  {@code deltafunnel.dependencies}: artifacts resolved at start, {@code groupId:artifactId:version}
 *                      ({@code camel-kafka} or {@code camel:kafka} is short for the Camel artifact of this version)
 * @param mavenSettings {@code deltafunnel.maven-settings}: a Maven {@code settings.xml} (mirrors, proxies, local
 *                      repository); blank: {@code ~/.m2/settings.xml} when present
 */
public record ResolutionSettings(List<String> repositories, boolean mavenCentral, Path libDir,
        List<String> dependencies, String mavenSettings) {

    /**
     * Reads the settings through {@code lookup} (null for a key that is not set).
     *
     * @param camelVersion the version {@code camel-<name>} shorthands resolve to
     * @throws IllegalArgumentException for a value that cannot work, naming the key
     */
    public static ResolutionSettings from(Function<String, String> lookup, String camelVersion) {
        List<String> repositories = new ArrayList<>();
        for (String entry : list(lookup, "deltafunnel.repositories")) {
            repositories.add(repositoryUrl(entry));
        }
        String central = get(lookup, "deltafunnel.maven-central", "auto").toLowerCase(Locale.ROOT);
        boolean mavenCentral = switch (central) {
            case "auto", "" -> repositories.isEmpty();
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("deltafunnel.maven-central must be auto, true or false, got "
                                                          + central);
        };
        String lib = get(lookup, "deltafunnel.lib-dir", "");
        Path libDir = null;
        if (!lib.isEmpty()) {
            libDir = Path.of(lib).toAbsolutePath();
            if (!Files.isDirectory(libDir)) {
                throw new IllegalArgumentException("deltafunnel.lib-dir: no such directory: " + libDir);
            }
        }
        List<String> dependencies = new ArrayList<>();
        for (String entry : list(lookup, "deltafunnel.dependencies")) {
            dependencies.add(gav(entry, camelVersion));
        }
        return new ResolutionSettings(List.copyOf(repositories), mavenCentral, libDir, List.copyOf(dependencies),
                get(lookup, "deltafunnel.maven-settings", ""));
    }

    /**
     * The settings as the application sees them before Camel starts: a {@code -Dkey=value} system property, else the
     * environment variable named after the key ({@code deltafunnel.lib-dir} → {@code DELTAFUNNEL_LIB_DIR}), else
     * {@code application.properties} on the class path.
     */
    public static Function<String, String> startupLookup() {
        Properties file = new Properties();
        try (InputStream in = ResolutionSettings.class.getClassLoader().getResourceAsStream("application.properties")) {
            if (in != null) {
                file.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read application.properties", e);
        }
        return key -> {
            String v = System.getProperty(key);
            if (v == null) {
                v = System.getenv(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
            }
            return v != null ? v : file.getProperty(key);
        };
    }

    /** The repositories for KameletMain's downloader, comma-separated; null when none. */
    public String repositoriesList() {
        return repositories.isEmpty() ? null : String.join(",", repositories);
    }

    /** Where missing artifacts are looked for, in words, for error messages. */
    public String describeSources() {
        List<String> places = new ArrayList<>();
        for (String r : repositories) {
            places.add(r.replaceFirst("//[^/@]*@", "//***@")); // never print credentials in a repository URL
        }
        if (mavenCentral) {
            places.add("Maven Central");
        }
        String where = places.isEmpty() ? "no Maven repository (deltafunnel.repositories is empty and"
                                          + " deltafunnel.maven-central=false)" : "Maven repositories " + places;
        return where + (libDir == null ? "" : ", lib-dir " + libDir);
    }

    private static String repositoryUrl(String entry) {
        String lower = entry.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("file:")) {
            return entry;
        }
        Path dir = Path.of(entry).toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("deltafunnel.repositories: " + entry + " is neither an http(s):// or"
                                               + " file: URL nor an existing directory (" + dir + ")");
        }
        return dir.toUri().toString();
    }

    private static String gav(String entry, String camelVersion) {
        String e = entry;
        if (e.startsWith("camel:")) {
            e = "org.apache.camel:camel-" + e.substring("camel:".length()) + ":" + camelVersion;
        } else if (e.startsWith("camel-") && !e.contains(":")) {
            e = "org.apache.camel:" + e + ":" + camelVersion;
        }
        String[] parts = e.split(":");
        if (parts.length != 3 || Arrays.stream(parts).anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("deltafunnel.dependencies: " + entry + " is not groupId:artifactId:version"
                                               + " (nor camel-<name> / camel:<name>)");
        }
        return e;
    }

    private static List<String> list(Function<String, String> lookup, String key) {
        return Arrays.stream(get(lookup, key, "").split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String get(Function<String, String> lookup, String key, String defaultValue) {
        String v = lookup.apply(key);
        return v == null ? defaultValue : v.trim();
    }
}
