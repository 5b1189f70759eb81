package io.deltafunnel.camel;

import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mssqlserver.MSSQLServerContainer;

/**
 * The end-to-end scenarios against a real SQL Server in Docker (image: {@code -Dmssql.image}, see
 * {@link io.deltafunnel.mssql.MssqlTestImage}). Skipped (not failed) where Docker is missing.
 */
@Testcontainers(disabledWithoutDocker = true)
class MssqlServerRouteIT extends AbstractMssqlScenarios {

    @Container
    static final MSSQLServerContainer SERVER =
            new MSSQLServerContainer(io.deltafunnel.mssql.MssqlTestImage.name()).acceptLicense();

    @BeforeAll
    static void started() {
        // The container is started by the extension before this runs.
    }

    @Override
    protected String jdbcUrl() {
        // Testcontainers' URL carries encrypt=false for the container's self-signed certificate; keep TLS on instead.
        return "jdbc:sqlserver://" + SERVER.getHost() + ":" + SERVER.getMappedPort(1433)
                + ";encrypt=true;trustServerCertificate=true";
    }

    @Override
    protected String user() {
        return SERVER.getUsername();
    }

    @Override
    protected String password() {
        return SERVER.getPassword();
    }
}
