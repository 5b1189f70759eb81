package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.mssql.BulkLoadException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A vector target on a server that does not acknowledge VECTORSUPPORT at login (an emulator started with
 * {@code vectorSupport(false)}): the load is refused before anything is written, naming the column.
 * {@link ModernTypesWithoutFeatureDirectRouteTest} runs the same with {@code bulkEncoder=direct}.
 */
class ModernTypesWithoutFeatureRouteTest extends MssqlRouteTestSupport {

    @RegisterExtension
    static final EmulatorServer OLD = new EmulatorServer(b -> b.port(0).sinkMode(false).vectorSupport(false));

    @Override
    protected ServerUnderTest server() {
        return OLD;
    }

    @BeforeEach
    void freshTable(TestInfo info) throws Exception {
        nameTable(info);
        exec("IF OBJECT_ID('dbo." + table + "') IS NOT NULL DROP TABLE [dbo].[" + table + "]");
    }

    @Test
    void aVectorTargetIsRefusedBeforeAnythingIsWritten() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [emb] vector(2) NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id]) VALUES (1000)");
        runRoute(source("SELECT 1 AS id, [1.0, 2.0]::FLOAT[2] AS emb", 10), mssql(""), 1, null);
        assertEquals(1, failures.size(), failures::toString);
        BulkLoadException f = failures.get(0);
        String all = f.getMessage() + (f.getCause() == null ? "" : " / " + f.getCause().getMessage());
        for (String w : new String[] {"emb", "vector(2)", "VECTORSUPPORT", "nothing was sent"}) {
            assertTrue(all.contains(w), () -> "'" + w + "' not in: " + all);
        }
        assertEquals(List.of(List.of(1000)), query("SELECT [id] FROM [dbo].[" + table + "]"), "the target changed");
        stopAndAssertNoArrowLeak();
    }
}
