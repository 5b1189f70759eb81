package io.deltafunnel.camel.springboot;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The deltafunnel-mssql producer health check, seen through camel-spring-boot's health contributor at
 * {@code /actuator/health}: UP while the emulator runs, DOWN (HTTP 503) once it is stopped. The producer's endpoint
 * names no DataSource; it writes to the application's DataSource bean.
 */
@SpringBootTest(classes = DeltaFunnelStarterHealthTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
                properties = {
                        "camel.health.producers-enabled=true",
                        "camel.health.exposure-level=full",
                        "management.endpoint.health.show-details=always",
                        "management.endpoints.web.exposure.include=health" })
@DirtiesContext
class DeltaFunnelStarterHealthTest {

    private static final MssqlEmulator EMULATOR = MssqlEmulator.builder().port(0).password("Starter!Health1").start();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        DataSource sqlServer() {
            SQLServerDataSource ds = new SQLServerDataSource();
            ds.setURL(EMULATOR.jdbcUrl());
            ds.setUser(EMULATOR.user());
            ds.setPassword(EMULATOR.password());
            ds.setLoginTimeout(5);
            return ds;
        }

        @Bean
        RouteBuilder writer() {
            return new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:write").routeId("writer").to("deltafunnel-mssql:dbo.health_target");
                }
            };
        }
    }

    @AfterAll
    static void closeEmulator() {
        EMULATOR.close();
    }

    @LocalServerPort
    int port;

    @Test
    void actuatorHealthIsUpWhileSqlServerRunsAndDownOnceItStops() throws Exception {
        Health up = health();
        assertEquals(200, up.status(), up::brief);
        assertEquals("UP", up.body().path("status").asText(), up::brief);
        assertEquals("UP", up.camel().path("status").asText(), up::brief);
        assertEquals("UP", up.producerCheck(), up::brief);
        assertEquals("dbo.health_target", up.producerData().path("table").asText(), up::brief);

        EMULATOR.close();

        Health down = health();
        assertEquals(503, down.status(), down::brief);
        assertEquals("DOWN", down.body().path("status").asText(), down::brief);
        assertEquals("DOWN", down.camel().path("status").asText(), down::brief);
        assertEquals("DOWN", down.producerCheck(), down::brief);
        // a connection failure: SQLState class 08, no SQL Server error number
        assertEquals("08S01", down.producerData().path("sqlState").asText(), down::brief);
        assertFalse(down.body().toString().contains(EMULATOR.password()), "the password is never reported");
    }

    /** One answer of /actuator/health; camel-spring-boot's contributor is {@code components.camelHealth}. */
    private record Health(int status, JsonNode body) {

        JsonNode camel() {
            return body.path("components").path("camelHealth");
        }

        /** The state of the deltafunnel-mssql producer check ({@code producer:deltafunnel-mssql-<endpoint>}). */
        String producerCheck() {
            return camel().path("details").path(producerCheckId()).asText();
        }

        JsonNode producerData() {
            return camel().path("details").path(producerCheckId() + ".data");
        }

        private String producerCheckId() {
            List<String> ids = new ArrayList<>();
            camel().path("details").fieldNames().forEachRemaining(name -> {
                if (name.startsWith("producer:deltafunnel-mssql-") && !name.endsWith(".data")) {
                    ids.add(name);
                }
            });
            assertEquals(1, ids.size(), () -> "one deltafunnel-mssql producer check in " + brief());
            return ids.get(0);
        }

        String brief() {
            String text = status + " " + body;
            return text.length() > 3000 ? text.substring(0, 3000) + "..." : text;
        }
    }

    private Health health() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return new Health(response.statusCode(), new ObjectMapper().readTree(response.body()));
    }
}
