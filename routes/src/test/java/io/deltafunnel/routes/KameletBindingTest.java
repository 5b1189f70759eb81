package io.deltafunnel.routes;

import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Binds the two Kamelets shipped in {@code kamelets/} and moves the sample table through them. */
class KameletBindingTest extends CamelTestSupport {

    private static MssqlEmulator emu;

    @BeforeAll
    static void start() {
        emu = TestTargets.startEmulator();
    }

    @AfterAll
    static void stop() {
        emu.close();
    }

    @Override
    protected RouteBuilder createRouteBuilder() throws Exception {
        String sample = TestTargets.smallSample().toString();
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("kamelet:deltafunnel-source?tablePath=" + sample + "&batchSize=700&repeatCount=1&delay=10")
                        .routeId("binding")
                        .to("kamelet:deltafunnel-mssql-sink?table=dbo.kamelet_orders&url=" + emu.jdbcUrl()
                            + "&username=" + emu.user() + "&password=RAW(" + emu.password() + ")"
                            + "&createTable=true&writeMode=replace")
                        .to("mock:done");
            }
        };
    }

    @Test
    void sourceAndSinkKameletsMoveTheTable() throws Exception {
        getMockEndpoint("mock:done").expectedMessageCount(8);
        getMockEndpoint("mock:done").setResultWaitTime(120_000); // a loaded machine: not a timing assertion
        getMockEndpoint("mock:done").assertIsSatisfied();
        assertEquals(5000, TestTargets.count(emu, "[dbo].[kamelet_orders]"));
    }
}
