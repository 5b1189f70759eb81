package io.deltafunnel.docs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The component pages {@code src/main/docs/<scheme>-component.adoc} hold, between the markers
 * {@code // generated: START} and {@code // generated: END}, option and header tables rendered from the catalog JSON
 * that camel-component-maven-plugin generates from the {@code @UriParam}/{@code @Metadata} annotations. Each option is
 * therefore described once, in its annotation. This test fails when a page is out of date; run it with
 * {@code -Ddeltafunnel.updateDocs=true} to rewrite the generated part (the hand-written text around it stays).
 */
class ComponentPagesTest {
    static final String START = "// generated: START (ComponentPagesTest renders this from the catalog JSON; do not edit)";
    static final String END = "// generated: END";

    @Test
    void deltafunnelPageIsCurrent() throws IOException {
        check("deltafunnel");
    }

    @Test
    void deltafunnelMssqlPageIsCurrent() throws IOException {
        check("deltafunnel-mssql");
    }

    private static void check(String scheme) throws IOException {
        JsonNode catalog = catalog(scheme);
        String generated = render(catalog);
        Path page = Path.of("src/main/docs", scheme + "-component.adoc");
        String current = Files.readString(page);
        int s = current.indexOf(START);
        int e = current.indexOf(END);
        assertTrue(s >= 0 && e > s, page + " must hold the generated markers");
        String updated = current.substring(0, s) + START + "\n" + generated + END + current.substring(e + END.length());
        if (Boolean.getBoolean("deltafunnel.updateDocs")) {
            Files.writeString(page, updated);
            return;
        }
        assertEquals(updated, current, page + " is out of date with the annotations: run "
                + "mvn -pl camel-deltafunnel -am test -Dtest=ComponentPagesTest -Ddeltafunnel.updateDocs=true"
                + " -Dsurefire.failIfNoSpecifiedTests=false");
    }

    static JsonNode catalog(String scheme) throws IOException {
        try (InputStream in = ComponentPagesTest.class.getResourceAsStream("/META-INF/io/deltafunnel/camel/"
                + scheme + ".json")) {
            assertNotNull(in, "generated catalog JSON for " + scheme);
            return new ObjectMapper().readTree(in);
        }
    }

    /** The generated part of a page: endpoint syntax, path and query options by group, then the headers. */
    static String render(JsonNode catalog) {
        StringBuilder b = new StringBuilder();
        JsonNode component = catalog.get("component");
        b.append("== URI format\n\n[source]\n----\n").append(component.get("syntax").asText())
                .append("?options\n----\n\n");
        List<Map.Entry<String, JsonNode>> path = new ArrayList<>();
        List<Map.Entry<String, JsonNode>> query = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = catalog.get("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            ("path".equals(p.getValue().get("kind").asText()) ? path : query).add(p);
        }
        table(b, "Path parameters", path);
        table(b, "Query parameters", query);
        b.append("== Message headers\n\n[width=\"100%\",cols=\"2,1,5\",options=\"header\"]\n|===\n| Name | Type | Description\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = catalog.get("headers").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> h = it.next();
            b.append("| `").append(h.getKey()).append("` | ").append(cell(h.getValue().get("javaType").asText()))
                    .append(" | ").append(cell(h.getValue().get("description").asText())).append('\n');
        }
        b.append("|===\n\n");
        return b.toString();
    }

    private static void table(StringBuilder b, String title, List<Map.Entry<String, JsonNode>> options) {
        b.append("== ").append(title).append(" (").append(options.size()).append(")\n\n")
                .append("[width=\"100%\",cols=\"2,1,1,6\",options=\"header\"]\n|===\n| Name | Group | Default | Description\n");
        for (Map.Entry<String, JsonNode> o : options) {
            JsonNode v = o.getValue();
            String name = v.has("prefix") && !v.get("prefix").asText().isEmpty()
                    ? v.get("prefix").asText() + "<name>" : o.getKey();
            StringBuilder desc = new StringBuilder(v.get("description").asText());
            if (v.has("enum")) {
                List<String> values = new ArrayList<>();
                v.get("enum").forEach(x -> values.add(x.asText()));
                desc.append(" One of: ").append(String.join(", ", values)).append('.');
            }
            if (v.path("secret").asBoolean()) {
                desc.append(" Secret: masked in URIs and never logged.");
            }
            if (v.path("required").asBoolean()) {
                desc.append(" Required.");
            }
            b.append("| `").append(name).append("` | ").append(cell(v.path("group").asText()))
                    .append(" | ").append(v.has("defaultValue") ? "`" + v.get("defaultValue").asText() + "`" : "")
                    .append(" | ").append(cell(desc.toString())).append('\n');
        }
        b.append("|===\n\n");
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    @Test
    void rendersEveryOptionAndHeaderOnce() throws IOException {
        JsonNode catalog = catalog("deltafunnel-mssql");
        String page = render(catalog);
        for (Iterator<String> it = catalog.get("properties").fieldNames(); it.hasNext(); ) {
            String name = it.next();
            assertEquals(1, count(page, "| `" + name + "` |"), name);
        }
        assertTrue(page.contains("One of: DRIVER, DIRECT."), "enum values listed");
        assertTrue(new String(page.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)
                .contains("| `password` | security"), "password is a security option");
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
