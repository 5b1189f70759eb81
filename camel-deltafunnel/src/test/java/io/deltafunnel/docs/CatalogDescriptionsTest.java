package io.deltafunnel.docs;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.camel.DeltaFunnelMssqlComponent;
import io.deltafunnel.camel.DeltaFunnelMssqlEndpoint;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.spi.UriPath;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated catalog JSON states every description of this project's options and headers exactly as its
 * annotation does: camel-component-maven-plugin's sanitizer drops {@code [ ] < > "} (so that {@code [my schema].[t]}
 * became "my schema.t" and {@code shardCount > 1} "shardCount 1"), and the build step
 * {@code src/build/CatalogDescriptions.java} restores them.
 */
class CatalogDescriptionsTest {

    @Test
    void bracketedNamesAreRenderedAsWritten() throws IOException {
        JsonNode mssql = ComponentPagesTest.catalog("deltafunnel-mssql");
        String table = mssql.path("properties").path("table").path("description").asText();
        assertTrue(table.contains("(parts may be bracketed: [my schema].[t])"), table);
        JsonNode source = ComponentPagesTest.catalog("deltafunnel");
        String stateTable = source.path("properties").path("stateTable").path("description").asText();
        assertTrue(stateTable.startsWith("The state table, [schema.]table,"), stateTable);
        String shard = source.path("headers").path(DeltaFunnelConstants.SHARD).path("description").asText();
        assertTrue(shard.startsWith("Sharded loads (shardCount > 1):"), shard);
        // the component's description comes from the endpoint's Javadoc: no half-removed inline tag
        String component = mssql.path("component").path("description").asText();
        assertTrue(component.contains("with bulkEncoder=DIRECT, the project's own TDS bulk writer"), component);
    }

    @Test
    void everyDescriptionIsTheAnnotations() throws Exception {
        check("deltafunnel", DeltaFunnelEndpoint.class, null);
        check("deltafunnel-mssql", DeltaFunnelMssqlEndpoint.class, DeltaFunnelMssqlComponent.class);
    }

    private static void check(String scheme, Class<?> endpoint, Class<?> component) throws Exception {
        JsonNode catalog = ComponentPagesTest.catalog(scheme);
        Map<String, String> expected = new LinkedHashMap<>();
        options(endpoint, expected);
        compare(scheme + " endpoint", expected, catalog.path("properties"));
        if (component != null) {
            Map<String, String> componentOptions = new LinkedHashMap<>();
            options(component, componentOptions);
            compare(scheme + " component", componentOptions, catalog.path("componentProperties"));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Field f : DeltaFunnelConstants.class.getDeclaredFields()) {
            Metadata m = f.getAnnotation(Metadata.class);
            if (m != null && Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                headers.put((String) f.get(null), m.description());
            }
        }
        compare(scheme + " headers", headers, catalog.path("headers"));
    }

    /** Every catalog entry of ours starts with its annotation's description (the plugin may append a note). */
    private static void compare(String what, Map<String, String> expected, JsonNode entries) {
        int ours = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = entries.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String annotated = expected.get(e.getKey());
            if (annotated == null) {
                continue; // one of Camel's own options
            }
            ours++;
            String described = e.getValue().path("description").asText();
            assertTrue(described.startsWith(annotated), what + " '" + e.getKey() + "': catalog \"" + described
                    + "\", annotation \"" + annotated + "\"");
        }
        assertEquals(expected.keySet().stream().filter(entries::has).count(), ours, what);
        assertTrue(ours > 0, what + ": the catalog holds our entries");
    }

    private static void options(Class<?> type, Map<String, String> into) {
        for (Class<?> c = type; c != null && c.getName().startsWith("io.deltafunnel."); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                UriPath path = f.getAnnotation(UriPath.class);
                UriParam param = f.getAnnotation(UriParam.class);
                Metadata metadata = f.getAnnotation(Metadata.class);
                if (param != null && f.getType().isAnnotationPresent(UriParams.class)) {
                    options(f.getType(), into);
                } else if (path != null && !path.description().isEmpty()) {
                    into.put(f.getName(), path.description());
                } else if (param != null && !param.description().isEmpty()) {
                    into.put(f.getName(), param.description());
                } else if (metadata != null && !metadata.description().isEmpty()) {
                    into.put(f.getName(), metadata.description());
                }
            }
        }
    }
}
