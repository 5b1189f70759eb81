package io.deltafunnel.routes;

import java.util.ArrayList;
import java.util.List;

import org.apache.camel.builder.RouteBuilder;

/**
 * Several Delta tables on a schedule, in Java DSL: one instance of the {@code deltafunnel-load-table}
 * template per entry of {@code deltafunnel.tables}, a comma-separated list of
 * {@code <sourcePath>=><targetTable>} pairs, each polled every {@code deltafunnel.schedule.delay} ms.
 * The YAML twin is {@code routes/multi-table.yaml}.
 */
public class MultiTableRoutes extends RouteBuilder {

    private final String tables;

    /** @param tables the {@code deltafunnel.tables} value */
    public MultiTableRoutes(String tables) {
        this.tables = tables;
    }

    /** Parses {@code a=>dbo.a, b=>dbo.b} into pairs. */
    static List<String[]> parse(String tables) {
        List<String[]> out = new ArrayList<>();
        for (String entry : tables.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int arrow = entry.indexOf("=>");
            if (arrow < 0) {
                throw new IllegalArgumentException("deltafunnel.tables entries are <deltaPath>=><table>: " + entry);
            }
            out.add(new String[] {entry.substring(0, arrow).trim(), entry.substring(arrow + 2).trim()});
        }
        return out;
    }

    @Override
    public void configure() {
        int i = 0;
        for (String[] pair : parse(tables)) {
            templatedRoute(LoadTableTemplate.TEMPLATE_ID)
                    .routeId("load-" + (i++) + "-" + pair[1].replaceAll("[^A-Za-z0-9_]", "_"))
                    .parameter("sourcePath", pair[0])
                    .parameter("targetTable", pair[1])
                    .parameter("writeMode", "{{deltafunnel.write-mode}}")
                    .parameter("delay", "{{deltafunnel.schedule.delay}}")
                    .parameter("repeatCount", "{{deltafunnel.repeat-count}}")
                    .parameter("batchSize", "{{deltafunnel.batch-size}}");
        }
    }
}
