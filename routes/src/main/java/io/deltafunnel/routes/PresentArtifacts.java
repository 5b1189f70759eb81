package io.deltafunnel.routes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The Maven artifacts ({@code groupId:artifactId:version}) the application already has, so that KameletMain's
 * dependency downloader never fetches them again: those bundled in the application (listed at build time in
 * {@value #LIST}, one {@code groupId:artifactId:type:version:scope} a line, by {@code maven-dependency-plugin:list};
 * the single runnable jar has no per-artifact jar files the downloader could recognise) and the jars of
 * {@code deltafunnel.lib-dir}.
 */
final class PresentArtifacts {

    /** The class-path resource(s) listing the bundled artifacts. */
    static final String LIST = "META-INF/deltafunnel/bundled-artifacts.txt";

    private final Set<String> gavs;
    private final List<Path> libJars;

    private PresentArtifacts(Set<String> gavs, List<Path> libJars) {
        this.gavs = gavs;
        this.libJars = libJars;
    }

    /** The bundled artifacts (every {@value #LIST} on {@code loader}'s class path) and the jars of {@code libDir}. */
    static PresentArtifacts of(ClassLoader loader, Path libDir) {
        Set<String> gavs = new LinkedHashSet<>();
        try {
            Enumeration<URL> lists = loader.getResources(LIST);
            while (lists.hasMoreElements()) {
                try (InputStream in = lists.nextElement().openStream();
                     BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    r.lines().map(PresentArtifacts::listedGav).filter(g -> g != null).forEach(gavs::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LIST, e);
        }
        List<Path> jars = new ArrayList<>();
        if (libDir != null) {
            try (Stream<Path> files = Files.list(libDir)) {
                files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
            } catch (IOException e) {
                throw new UncheckedIOException("deltafunnel.lib-dir: cannot list " + libDir, e);
            }
            for (Path jar : jars) {
                gavs.addAll(gavsOf(jar));
            }
        }
        return new PresentArtifacts(gavs, List.copyOf(jars));
    }

    /** {@code groupId:artifactId:version} of each artifact present. */
    Set<String> gavs() {
        return gavs;
    }

    /** The jars of {@code deltafunnel.lib-dir}, sorted by name. */
    List<Path> libJars() {
        return libJars;
    }

    boolean contains(String groupId, String artifactId, String version) {
        return gavs.contains(groupId + ":" + artifactId + ":" + version);
    }

    /** A line of {@code dependency:list} ({@code g:a:type[:classifier]:v:scope[ -- module m]}), or null. */
    static String listedGav(String line) {
        String t = line.trim();
        int space = t.indexOf(' ');
        if (space > 0) {
            t = t.substring(0, space);
        }
        String[] p = t.split(":");
        if (p.length < 5 || p[0].isEmpty()) {
            return null;
        }
        return p[0] + ":" + p[1] + ":" + p[p.length - 2];
    }

    /**
     * What a jar of the lib-dir is: the {@code META-INF/maven/.../pom.properties} inside it (every jar Maven builds
     * has one). A jar without one is still on the class path, only not known to the downloader by its coordinates.
     */
    static Set<String> gavsOf(Path jar) {
        Set<String> out = new LinkedHashSet<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream().filter(e -> e.getName().startsWith("META-INF/maven/")
                                      && e.getName().endsWith("/pom.properties")).forEach(e -> {
                Properties p = new Properties();
                try (InputStream in = file.getInputStream(e)) {
                    p.load(in);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
                if (p.getProperty("groupId") != null && p.getProperty("artifactId") != null
                    && p.getProperty("version") != null) {
                    out.add(p.getProperty("groupId") + ":" + p.getProperty("artifactId") + ":" + p.getProperty("version"));
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException("deltafunnel.lib-dir: " + jar + " is not a readable jar: "
                                               + e.getMessage(), e);
        }
        return out;
    }
}
