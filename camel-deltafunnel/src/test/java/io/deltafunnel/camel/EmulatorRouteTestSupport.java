package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Route tests against one in-JVM emulator per class; each test gets a fresh table named after it. */
abstract class EmulatorRouteTestSupport extends MssqlRouteTestSupport {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    @BeforeEach
    void freshTable(TestInfo info) throws Exception {
        SERVER.emulator().faults().clear();
        nameTable(info);
        if (!info.getDisplayName().startsWith(table)) {
            table = table + "_" + info.getDisplayName().replaceAll("[^A-Za-z0-9]", "");
        }
        dropIfExists(table);
    }

    @AfterEach
    void clearFaults() {
        SERVER.emulator().faults().clear();
    }

    protected void dropIfExists(String name) throws Exception {
        exec("IF OBJECT_ID('dbo." + name.replace("'", "''") + "') IS NOT NULL DROP TABLE [dbo].["
                + name.replace("]", "]]") + "]");
    }

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }
}
