package io.deltafunnel.camel;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.apache.camel.CamelContext;
import org.apache.camel.support.ResourceHelper;

/**
 * The {@code query} option as camel-sql reads it: SQL text as is, or a reference to a file holding it —
 * {@code resource:classpath:sql/load.sql}, {@code resource:file:/etc/load.sql}, or {@code file:/etc/load.sql} /
 * {@code classpath:sql/load.sql} without the {@code resource:} prefix.
 */
final class QueryReference {

    private QueryReference() {
    }

    /**
     * @return the SQL: {@code query} itself, or the content of the resource it names
     * @throws IllegalArgumentException naming the endpoint and the location when the resource cannot be read or is empty
     */
    static String resolve(CamelContext context, String endpoint, String query) {
        if (query == null) {
            return null;
        }
        String trimmed = query.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        String location;
        if (lower.startsWith("resource:")) {
            location = trimmed.substring("resource:".length());
        } else if (lower.startsWith("file:") || lower.startsWith("classpath:")) {
            location = trimmed;
        } else {
            return query;
        }
        String text;
        try (InputStream in = ResourceHelper.resolveMandatoryResourceAsInputStream(context, location)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(endpoint + ": cannot read the query from " + location + ": " + e.getMessage(),
                    e);
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(endpoint + ": the query file " + location + " is empty");
        }
        return text;
    }
}
