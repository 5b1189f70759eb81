package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Testcontainers;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** json and vector exist from SQL Server 2025 (major version 17): skipped on older images. */
@Testcontainers(disabledWithoutDocker = true)
class ModernTypeIT extends ModernTypeScenarios {
    @BeforeAll
    static void sqlServer2025() throws SQLException {
        try (Connection c = SqlServerContainer.shared().connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CAST(SERVERPROPERTY('ProductMajorVersion') AS int)")) {
            rs.next();
            assumeTrue(rs.getInt(1) >= 17, "json and vector need SQL Server 2025; image " + SqlServerContainer.image());
        }
    }

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
