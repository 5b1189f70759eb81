package io.deltafunnel.camel;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mssqlserver.MSSQLServerContainer;

/**
 * Every end-to-end producer scenario (all types and edge values, write modes, transactions, errors) with
 * {@code bulkEncoder=direct} and no fallback, against a real SQL Server in Docker (image: {@code -Dmssql.image}, see
 * {@link io.deltafunnel.mssql.MssqlTestImage}), over TLS. Skipped (not failed) where Docker is missing. Until this
 * has passed, the producer's default encoder stays {@code driver}.
 */
@Testcontainers(disabledWithoutDocker = true)
class MssqlServerDirectRouteIT extends AbstractMssqlScenarios {

    @Container
    static final MSSQLServerContainer SERVER =
            new MSSQLServerContainer(io.deltafunnel.mssql.MssqlTestImage.name()).acceptLicense();

    @Override
    protected String jdbcUrl() {
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

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }
}
