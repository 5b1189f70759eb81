package io.deltafunnel.camel;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs after {@code package}: the built jar carries the metadata that camel-component-maven-plugin generated,
 * and every option and header in it is documented.
 */
class GeneratedMetadataIT {

    @Test
    void jarContainsGeneratedMetadataWithEveryOptionAndHeaderDocumented() throws Exception {
        Path jar = Path.of(System.getProperty("deltafunnel.jar", "target/camel-deltafunnel.jar"));
        assertTrue(Files.isRegularFile(jar), "the component jar is built: " + jar);
        try (JarFile jarFile = new JarFile(jar.toFile())) {
            for (String scheme : Set.of("deltafunnel", "deltafunnel-mssql")) {
                ZipEntry service = jarFile.getEntry("META-INF/services/org/apache/camel/component/" + scheme);
                assertNotNull(service, "service file for " + scheme);
                assertNotNull(jarFile.getEntry("META-INF/services/org/apache/camel/configurer/" + scheme + "-endpoint"));
                assertNotNull(jarFile.getEntry("META-INF/services/org/apache/camel/urifactory/" + scheme + "-endpoint"));

                ZipEntry json = jarFile.getEntry("META-INF/io/deltafunnel/camel/" + scheme + ".json");
                assertNotNull(json, "component JSON for " + scheme);
                JsonObject root;
                try (InputStream in = jarFile.getInputStream(json)) {
                    root = (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
                assertDocumented(scheme, "properties", root.getMap("properties"));
                assertDocumented(scheme, "componentProperties", root.getMap("componentProperties"));
                JsonObject headers = (JsonObject) root.getMap("headers");
                assertNotNull(headers, scheme + " declares its headers");
                assertDocumented(scheme, "headers", headers);
                assertTrue(headers.keySet().containsAll(Set.of("CamelDeltaFunnelRunId", "CamelDeltaFunnelBatchRows",
                        "CamelDeltaFunnelInputBatches", "CamelDeltaFunnelInputRows", "CamelDeltaFunnelOutputBatches",
                        "CamelDeltaFunnelOutputRows", "CamelDeltaFunnelDeltaVersions", "CamelDeltaFunnelAttempt")));
                if (scheme.equals("deltafunnel")) {
                    assertTrue(root.getMap("properties").keySet().containsAll(Set.of("query", "database", "initSql",
                            "batchSize", "maxMessagesPerPoll", "allowExtensionAutoInstall", "delta",
                            "deltaVersion", "deltaTimestamp", "delay", "repeatCount", "bridgeErrorHandler",
                            "sendEmptyMessageWhenIdle")));
                    assertNotNull(jarFile.getEntry("io/deltafunnel/camel/DeltaFunnelEndpointConfigurer.class"),
                            "generated configurer is compiled into the jar");
                } else {
                    assertTrue(root.getMap("properties").keySet().containsAll(Set.of("table", "dataSource", "url",
                            "username", "password", "writeMode", "keyColumns", "createTable", "transaction",
                            "columnMapping", "tableLock", "checkConstraints", "fireTriggers", "keepNulls",
                            "keepIdentity", "bulkBatchSize", "timeout", "maxRetries", "retryDelay")));
                    Map<?, ?> password = (Map<?, ?>) root.getMap("properties").get("password");
                    assertTrue(Boolean.TRUE.equals(password.get("secret")), "password is marked secret");
                    assertNotNull(jarFile.getEntry("io/deltafunnel/camel/DeltaFunnelMssqlEndpointConfigurer.class"),
                            "generated configurer is compiled into the jar");
                }
            }
        }
    }

    @Test
    void jarRegistersTheGeneratedTypeConverterLoaderAndTheDataTypeTransformers() throws Exception {
        Path jar = Path.of(System.getProperty("deltafunnel.jar", "target/camel-deltafunnel.jar"));
        assertTrue(Files.isRegularFile(jar), "the component jar is built: " + jar);
        try (JarFile jarFile = new JarFile(jar.toFile())) {
            ZipEntry loaders = jarFile.getEntry("META-INF/services/org/apache/camel/TypeConverterLoader");
            assertNotNull(loaders, "TypeConverterLoader service file");
            String text = new String(jarFile.getInputStream(loaders).readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(text.lines().anyMatch("io.deltafunnel.camel.DeltaFunnelArrowConvertersLoader"::equals), text);
            assertNotNull(jarFile.getEntry("io/deltafunnel/camel/DeltaFunnelArrowConvertersLoader.class"),
                    "the generated loader is compiled into the jar");
            for (String[] transformer : new String[][] {
                    {"deltafunnel-application-json", "ArrowJsonDataTypeTransformer"},
                    {"deltafunnel-application-vnd-apache-arrow-stream", "ArrowStreamDataTypeTransformer"},
                    {"deltafunnel-application-x-java-object", "ArrowRootDataTypeTransformer"}}) {
                ZipEntry service = jarFile.getEntry("META-INF/services/org/apache/camel/transformer/" + transformer[0]);
                assertNotNull(service, "transformer service file " + transformer[0]);
                String content = new String(jarFile.getInputStream(service).readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(content.contains("class=io.deltafunnel.camel." + transformer[1]), content);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertDocumented(String scheme, String section, Map<?, ?> entries) {
        assertNotNull(entries, scheme + " " + section);
        assertFalse(entries.isEmpty(), scheme + " " + section);
        entries.forEach((name, value) -> {
            Object description = ((Map<String, Object>) value).get("description");
            assertTrue(description instanceof String s && !s.isBlank(),
                    scheme + " " + section + " '" + name + "' has no description");
        });
    }
}
