package io.deltafunnel.camel;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/** Route tests against one in-JVM emulator per class; each test gets a fresh table named after it. */
abstract class EmulatorRouteTestSupport extends MssqlRouteTestSupport {

    static MssqlEmulator emulator;

    @BeforeAll
    static void startEmulator() {
        emulator = MssqlEmulator.builder().port(0).sinkMode(false).start();
    }

    @AfterAll
    static void stopEmulator() {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }

    @BeforeEach
    void freshTable(TestInfo info) throws Exception {
        emulator.faults().clear();
        nameTable(info);
        if (!info.getDisplayName().startsWith(table)) {
            table = table + "_" + info.getDisplayName().replaceAll("[^A-Za-z0-9]", "");
        }
        dropIfExists(table);
    }

    @AfterEach
    void clearFaults() {
        emulator.faults().clear();
    }

    protected void dropIfExists(String name) throws Exception {
        exec("IF OBJECT_ID('dbo." + name.replace("'", "''") + "') IS NOT NULL DROP TABLE [dbo].["
                + name.replace("]", "]]") + "]");
    }

    @Override
    protected String jdbcUrl() {
        return emulator.jdbcUrl();
    }

    @Override
    protected String user() {
        return emulator.user();
    }

    @Override
    protected String password() {
        return emulator.password();
    }
}
