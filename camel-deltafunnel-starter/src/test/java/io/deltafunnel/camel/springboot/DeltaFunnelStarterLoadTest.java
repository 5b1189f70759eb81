package io.deltafunnel.camel.springboot;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.camel.DeltaFunnelMssqlComponent;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.sample.SampleDeltaWriter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.NotifyBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Spring Boot application with the starter loads a Delta table (written here) into the embedded emulator through
 * a YAML route (src/test/resources/routes/load-orders.yaml) whose producer names no DataSource: the component gets
 * the application's DataSource bean. The target then holds exactly the table's rows, and the route's Arrow
 * allocator has nothing outstanding.
 */
@SpringBootTest(classes = DeltaFunnelStarterLoadTest.App.class, properties = {
        "camel.main.routes-include-pattern=classpath:routes/load-orders.yaml" })
@DirtiesContext
class DeltaFunnelStarterLoadTest {

    private static final int ROWS = 1000;
    private static final MssqlEmulator EMULATOR = MssqlEmulator.builder().port(0).password("Starter!Load1").start();

    @TempDir
    static Path lake;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        DataSource sqlServer() {
            SQLServerDataSource ds = new SQLServerDataSource();
            ds.setURL(EMULATOR.jdbcUrl());
            ds.setUser(EMULATOR.user());
            ds.setPassword(EMULATOR.password());
            return ds;
        }
    }

    @BeforeAll
    static void writeDeltaTable() throws Exception {
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            SampleDeltaWriter writer = new SampleDeltaWriter(duckdb, lake.resolve("orders"));
            writer.append("SELECT i::BIGINT AS id, 'order-' || i AS name, i * 0.25 AS amount FROM range(" + ROWS
                          + ") t(i)", 3);
        }
    }

    @DynamicPropertySource
    static void ordersPath(DynamicPropertyRegistry registry) {
        registry.add("orders.path", () -> lake.resolve("orders").toString());
    }

    @AfterAll
    static void closeEmulator() {
        EMULATOR.close();
    }

    @Autowired
    CamelContext camel;

    @Autowired
    DataSource sqlServer;

    @Test
    void yamlRouteLoadsTheDeltaTableIntoSqlServerWithTheSpringDataSource() throws Exception {
        // 1000 rows in batches of 400: three exchanges, the last one commits the run
        NotifyBuilder done = new NotifyBuilder(camel).fromRoute("load-orders").whenCompleted(3).create();
        assertTrue(done.matches(120, TimeUnit.SECONDS), "the route wrote its three batches");

        DeltaFunnelMssqlComponent producer = camel.getComponent("deltafunnel-mssql", DeltaFunnelMssqlComponent.class);
        assertSame(sqlServer, producer.getDataSource(), "the component took the Spring context's DataSource");

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            expected.add(i + "|order-" + i + "|" + (i * 0.25));
        }
        assertEquals(expected, targetRows());

        BufferAllocator allocator = ((DeltaFunnelEndpoint) camel.getRoute("load-orders").getEndpoint()).getAllocator();
        camel.getRouteController().stopRoute("load-orders");
        assertTrue(allocator.getPeakMemoryAllocation() > 0, "the route's endpoint allocated the batches");
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding in " + allocator.getName());
    }

    private static List<String> targetRows() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(EMULATOR.jdbcUrl(), EMULATOR.user(), EMULATOR.password());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, name, amount FROM dbo.starter_orders ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + "|" + rs.getString(2) + "|" + rs.getDouble(3));
            }
        }
        return rows;
    }
}
