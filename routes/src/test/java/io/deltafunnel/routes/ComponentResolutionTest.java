package io.deltafunnel.routes;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.apache.camel.NoSuchEndpointException;
import org.apache.camel.main.download.MavenDependencyDownloader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Component resolution settings, the artifacts the application already has (so KameletMain's downloader fetches none
 * of them), and the message for a component that could not be resolved.
 */
class ComponentResolutionTest {

    @TempDir
    Path dir;

    private static ResolutionSettings settings(Map<String, String> values) {
        return ResolutionSettings.from(values::get, "4.18.0");
    }

    @Test
    void byDefaultMavenCentralIsAskedAndNothingElse() {
        ResolutionSettings s = settings(Map.of());
        assertTrue(s.mavenCentral());
        assertEquals(List.of(), s.repositories());
        assertNull(s.repositoriesList());
        assertNull(s.libDir());
        assertEquals("Maven repositories [Maven Central]", s.describeSources());
    }

    @Test
    void aConfiguredRepositoryReplacesMavenCentralUnlessCentralIsAskedFor() throws Exception {
        Path local = Files.createDirectories(dir.resolve("repo"));
        ResolutionSettings s = settings(Map.of("deltafunnel.repositories", local + ", https://mirror.example/maven2"));
        assertFalse(s.mavenCentral());
        assertEquals(List.of(local.toUri().toString(), "https://mirror.example/maven2"), s.repositories());
        assertEquals(local.toUri() + ",https://mirror.example/maven2", s.repositoriesList());
        assertTrue(settings(Map.of("deltafunnel.repositories", local.toString(), "deltafunnel.maven-central", "true"))
                .mavenCentral());
        assertFalse(settings(Map.of("deltafunnel.maven-central", "false")).mavenCentral());
        assertTrue(settings(Map.of("deltafunnel.maven-central", "false")).describeSources()
                .contains("no Maven repository"));
    }

    @Test
    void wrongValuesAreRefusedNamingTheKey() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(Map.of("deltafunnel.repositories",
                dir.resolve("missing").toString()))).getMessage().startsWith("deltafunnel.repositories:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(Map.of("deltafunnel.lib-dir",
                dir.resolve("missing").toString()))).getMessage().startsWith("deltafunnel.lib-dir:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(Map.of("deltafunnel.dependencies",
                "org.apache.camel:camel-kafka"))).getMessage().contains("org.apache.camel:camel-kafka"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings(Map.of("deltafunnel.maven-central",
                "sometimes"))).getMessage().startsWith("deltafunnel.maven-central"));
    }

    @Test
    void dependenciesAcceptCamelShorthands() {
        assertEquals(List.of("org.apache.camel:camel-kafka:4.18.0", "org.apache.camel:camel-ftp:4.18.0",
                "com.acme:lib:1.2"), settings(Map.of("deltafunnel.dependencies",
                "org.apache.camel:camel-kafka:4.18.0, camel:ftp,com.acme:lib:1.2")).dependencies());
        assertEquals(List.of("org.apache.camel:camel-sql:4.18.0"),
                settings(Map.of("deltafunnel.dependencies", "camel-sql")).dependencies());
    }

    @Test
    void credentialsInARepositoryUrlAreNeverPrinted() {
        String sources = settings(Map.of("deltafunnel.repositories", "https://loader:s3cret@nexus.example/maven2"))
                .describeSources();
        assertFalse(sources.contains("s3cret"), sources);
        assertTrue(sources.contains("https://***@nexus.example/maven2"), sources);
    }

    @Test
    void theBundledArtifactsAreListedAtBuildTime() {
        PresentArtifacts present = PresentArtifacts.of(getClass().getClassLoader(), null);
        String v = MissingComponents.camelVersion();
        assertTrue(present.contains("org.apache.camel", "camel-api", v), present.gavs().toString());
        assertTrue(present.contains("org.apache.camel", "camel-kamelet-main", v));
        assertTrue(present.contains("io.deltafunnel", "camel-deltafunnel", "0.1.0-SNAPSHOT"));
        assertFalse(present.contains("org.apache.camel", "camel-ftp", v));
        assertEquals("org.apache.camel:camel-seda:4.18.0",
                PresentArtifacts.listedGav("   org.apache.camel:camel-seda:jar:4.18.0:compile -- module camel.seda"));
        assertEquals("io.netty:netty-x:4.1.0", PresentArtifacts.listedGav("io.netty:netty-x:jar:linux:4.1.0:runtime"));
        assertNull(PresentArtifacts.listedGav("The following files have been resolved:"));
    }

    @Test
    void libDirJarsAreKnownByTheirPomProperties() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path jar = lib.resolve("anything.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            j.putNextEntry(new JarEntry("META-INF/maven/com.acme/acme-component/pom.properties"));
            j.write("groupId=com.acme\nartifactId=acme-component\nversion=2.0\n".getBytes());
            j.closeEntry();
        }
        Files.writeString(lib.resolve("notes.txt"), "not a jar");
        PresentArtifacts present = PresentArtifacts.of(getClass().getClassLoader(), lib);
        assertEquals(List.of(jar), present.libJars());
        assertTrue(present.contains("com.acme", "acme-component", "2.0"));
    }

    /** What KameletMain's downloader asks before downloading: the bundled and lib-dir artifacts are present. */
    @Test
    void theDownloaderSeesTheBundledArtifactsAsPresent() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        try (OutputStream out = Files.newOutputStream(lib.resolve("acme.jar")); JarOutputStream j = new JarOutputStream(out)) {
            j.putNextEntry(new JarEntry("META-INF/maven/com.acme/acme-component/pom.properties"));
            j.write("groupId=com.acme\nartifactId=acme-component\nversion=2.0\n".getBytes());
            j.closeEntry();
        }
        PresentArtifacts present = PresentArtifacts.of(getClass().getClassLoader(), lib);
        try (DeltaFunnelMain.PresentArtifactsClassLoader loader = new DeltaFunnelMain.PresentArtifactsClassLoader(
                getClass().getClassLoader(), present)) {
            loader.addFile(lib.resolve("acme.jar").toFile());
            MavenDependencyDownloader downloader = new MavenDependencyDownloader();
            downloader.setClassLoader(loader);
            String v = MissingComponents.camelVersion();
            assertTrue(downloader.alreadyOnClasspath("org.apache.camel", "camel-log", v));
            assertTrue(downloader.alreadyOnClasspath("org.apache.camel", "camel-platform-http", v));
            assertTrue(downloader.alreadyOnClasspath("com.acme", "acme-component", "2.0"));
            assertFalse(downloader.alreadyOnClasspath("org.apache.camel", "camel-ftp", v));
            assertEquals(List.of("acme.jar"), loader.getDownloaded());
        }
    }

    @Test
    void aMissingComponentIsExplainedWithItsArtifact() {
        String v = MissingComponents.camelVersion();
        String ftp = MissingComponents.explain(new RuntimeException("start failed",
                new NoSuchEndpointException("ftp://host/out")), "Maven repositories [file:/repo/]");
        assertTrue(ftp.contains("'ftp'") && ftp.contains("org.apache.camel:camel-ftp:" + v)
                   && ftp.contains("file:/repo/"), ftp);
        String named = MissingComponents.explain(new IllegalArgumentException(
                "Cannot find component with name: sftp. Did you mean: ftp, ftps"), "x");
        assertTrue(named.contains("org.apache.camel:camel-ftp:" + v), named); // sftp ships in camel-ftp
        String unknown = MissingComponents.explain(new NoSuchEndpointException("nosuchthing:x"), "x");
        assertTrue(unknown.contains("'nosuchthing'") && unknown.contains("deltafunnel.dependencies"), unknown);
        assertNull(MissingComponents.explain(new IllegalStateException("something else"), "x"));
    }

    @Test
    void idleExitIsADuration() {
        Map<String, String> values = new HashMap<>();
        assertEquals(10_000, AppSettings.from(values::get, k -> null).idleExitMillis());
        values.put("deltafunnel.idle-exit", "1m30s");
        assertEquals(90_000, AppSettings.from(values::get, k -> null).idleExitMillis());
        values.put("deltafunnel.idle-exit", "2500");
        assertEquals(2_500, AppSettings.from(values::get, k -> null).idleExitMillis());
        values.put("deltafunnel.idle-exit", "0");
        assertThrows(IllegalArgumentException.class, () -> AppSettings.from(values::get, k -> null));
    }
}
