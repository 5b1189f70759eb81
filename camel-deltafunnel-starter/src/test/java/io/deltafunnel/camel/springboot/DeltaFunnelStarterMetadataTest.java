package io.deltafunnel.camel.springboot;

import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.camel.util.StringHelper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Spring Boot configuration metadata the build generates (spring-boot-configuration-processor, merged with the
 * additional metadata that {@code src/build/StarterMetadata.java} writes from the catalog) lists exactly the component
 * options of each component's catalog JSON (written by camel-component-maven-plugin in camel-deltafunnel's build), with
 * the same type, default and description: each option is described once, in the component's annotation. An option
 * added to a component without its starter property, or a starter description of its own, fails here.
 */
class DeltaFunnelStarterMetadataTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Properties of the auto-configuration itself, not component options. */
    private static final List<String> STARTER_ONLY = List.of("enabled", "customizer.enabled");

    @ParameterizedTest
    @ValueSource(strings = { "deltafunnel", "deltafunnel-mssql" })
    void generatedMetadataListsEveryComponentOption(String scheme) throws Exception {
        JsonNode catalog = read(resource("META-INF/io/deltafunnel/camel/" + scheme + ".json"));
        Map<String, String> expected = new TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> options = catalog.path("componentProperties").fields();
        while (options.hasNext()) {
            Map.Entry<String, JsonNode> option = options.next();
            expected.put(StringHelper.camelCaseToDash(option.getKey()), describe(option.getValue()));
            assertTrue(hasSetter(scheme, option.getKey()), "the starter's configuration class of " + scheme
                    + " has a property " + option.getKey());
        }
        assertTrue(expected.containsKey("autowired-enabled"), "the catalog of " + scheme + " was read: " + expected);

        String prefix = "camel.component." + scheme + ".";
        Map<String, String> actual = new TreeMap<>();
        for (JsonNode property : starterMetadata()) {
            String name = property.path("name").asText();
            if (name.startsWith(prefix)) {
                String option = name.substring(prefix.length());
                if (!STARTER_ONLY.contains(option)) {
                    actual.put(option, property.path("type").asText() + " default "
                                       + property.path("defaultValue").asText("(none)") + ": "
                                       + property.path("description").asText("(no description)"));
                }
            }
        }
        assertEquals(expected, actual, "camel.component." + scheme + ".* against the component's catalog options");
    }

    /** The catalog option as the metadata states it: its Java type (boxed), default and description. */
    private static String describe(JsonNode option) {
        String type = switch (option.path("javaType").asText()) {
            case "boolean" -> "java.lang.Boolean";
            case "int" -> "java.lang.Integer";
            case "long" -> "java.lang.Long";
            default -> option.path("javaType").asText();
        };
        JsonNode dflt = option.path("defaultValue");
        return type + " default " + (dflt.isMissingNode() ? "(none)" : dflt.asText()) + ": "
               + option.path("description").asText();
    }

    /** Whether the starter's configuration class for {@code scheme} can bind {@code option}. */
    private static boolean hasSetter(String scheme, String option) {
        Class<?> type = scheme.equals("deltafunnel") ? DeltaFunnelComponentConfiguration.class
                : DeltaFunnelMssqlComponentConfiguration.class;
        String setter = "set" + Character.toUpperCase(option.charAt(0)) + option.substring(1);
        for (java.lang.reflect.Method m : type.getMethods()) {
            if (m.getName().equals(setter) && m.getParameterCount() == 1) {
                return true;
            }
        }
        return false;
    }

    /** The properties of this module's generated META-INF/spring-configuration-metadata.json. */
    private static List<JsonNode> starterMetadata() throws Exception {
        List<JsonNode> properties = new ArrayList<>();
        int files = 0;
        for (URL url : Collections.list(DeltaFunnelStarterMetadataTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            JsonNode metadata = read(url);
            boolean ours = false;
            for (JsonNode group : metadata.path("groups")) {
                ours |= group.path("sourceType").asText().startsWith("io.deltafunnel.camel.springboot.");
            }
            if (ours) {
                files++;
                metadata.path("properties").forEach(properties::add);
            }
        }
        assertEquals(1, files, "the starter's generated metadata is on the classpath once");
        return properties;
    }

    private static URL resource(String name) {
        URL url = DeltaFunnelStarterMetadataTest.class.getClassLoader().getResource(name);
        assertNotNull(url, name + " on the classpath (camel-deltafunnel's generated catalog)");
        return url;
    }

    private static JsonNode read(URL url) throws Exception {
        try (InputStream in = url.openStream()) {
            return JSON.readTree(in);
        }
    }
}
