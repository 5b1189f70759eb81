package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The YAML interop routes of docs/interop.md, taken verbatim from the page and run by the application in-process:
 * a Delta table to Arrow IPC stream files (read back with Arrow Java), and those files into SQL Server by a route
 * without a {@code deltafunnel:} consumer, which ends the one-shot job when idle. README.md's "Connect to anything"
 * carries the same blocks ({@code ApplicationProcessIT} runs those with the packaged jar).
 */
class InteropDocsRoutesTest {

    private final PrintStream originalOut = System.out;
    private final List<String> properties = new ArrayList<>();

    @TempDir
    Path work;

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        properties.forEach(System::clearProperty);
    }

    private void set(String key, String value) {
        System.setProperty(key, value);
        properties.add(key);
    }

    record Run(int status, String output) {
    }

    private Run runApp(Map<String, String> props) throws Exception {
        props.forEach(this::set);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int status;
        try {
            status = new DeltaFunnelApplication().run(new String[0]);
        } finally {
            System.setOut(originalOut);
            properties.forEach(System::clearProperty);
            properties.clear();
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        originalOut.println(out);
        return new Run(status, out);
    }

    @Test
    void theReadmeAndTheInteropPageShowTheSameYamlRoutes() throws Exception {
        assertEquals(DocsYaml.blocks(DocsYaml.readme(), "## Connect to anything", 2),
                DocsYaml.blocks(DocsYaml.interop(), null, 2));
    }

    @Test
    void theInteropYamlRoutesRunFromThePage() throws Exception {
        List<String> yaml = DocsYaml.blocks(DocsYaml.interop(), null, 2);
        Path toArrow = Files.writeString(work.resolve("orders-to-arrow.yaml"), yaml.get(0));
        Path toSqlServer = Files.writeString(work.resolve("arrow-to-sqlserver.yaml"), yaml.get(1));
        Path exchange = work.resolve("exchange");
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            Run out = runApp(Map.of("deltafunnel.routes", toArrow.toString(), "orders.path",
                    TestTargets.smallSample().toString(), "exchange.out", exchange.toString(),
                    "deltafunnel.mssql.url", target.jdbcUrl(), "deltafunnel.mssql.password", target.password()));
            assertEquals(0, out.status(), out.output());
            assertTrue(out.output().contains("DeltaFunnel run complete on route "), out.output());
            SampleArrowFiles.assertSampleRows(exchange, 5000);

            Run in = runApp(Map.of("deltafunnel.routes", toSqlServer.toString(), "exchange.in", exchange.toString(),
                    "deltafunnel.idle-exit", "3s", "deltafunnel.mssql.url", target.jdbcUrl(),
                    "deltafunnel.mssql.password", target.password()));
            assertEquals(0, in.status(), in.output());
            assertTrue(in.output().contains("DeltaFunnel target dbo.orders: 1 run, 5,000 rows; target holds 5,000 rows"
                                            + " (read back)"), in.output());
            assertTrue(in.output().contains("one-shot job done"), in.output());
            assertEquals(5000, TestTargets.count(target, "[dbo].[orders]"));
        }
    }
}
