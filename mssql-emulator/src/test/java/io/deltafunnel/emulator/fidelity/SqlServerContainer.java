package io.deltafunnel.emulator.fidelity;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.mssqlserver.MSSQLServerContainer;

/**
 * One real SQL Server in Docker, started on first use and shared by every {@code *IT} of the JVM (Testcontainers'
 * Ryuk removes it when the JVM ends). The image is {@code -Dmssql.image} (the CI matrix sets it), by default
 * {@value #DEFAULT_IMAGE}. ITs are annotated {@code @Testcontainers(disabledWithoutDocker = true)}, so without
 * Docker this class is never touched.
 */
public final class SqlServerContainer implements ServerUnderTest {
    public static final String DEFAULT_IMAGE = "mcr.microsoft.com/mssql/server:2022-latest";
    private static MSSQLServerContainer container;

    /** The shared server; starts it on first call. */
    public static synchronized SqlServerContainer shared() {
        if (container == null) {
            if (!DockerClientFactory.instance().isDockerAvailable()) {
                throw new IllegalStateException("no Docker: *IT classes must be @Testcontainers(disabledWithoutDocker = true)");
            }
            MSSQLServerContainer c = new MSSQLServerContainer(image())
                    .acceptLicense();
            c.start();
            container = c;
        }
        return new SqlServerContainer();
    }

    private SqlServerContainer() {
    }

    /** The database of {@link #readCommittedSnapshotDatabase()}. */
    public static final String RCSI_DATABASE = "deltafunnel_rcsi";
    private static boolean rcsiReady;

    /**
     * The shared server's database {@value #RCSI_DATABASE} with READ_COMMITTED_SNAPSHOT ON (Azure SQL Database's
     * default), created and switched on first use with {@code ALTER DATABASE ... SET READ_COMMITTED_SNAPSHOT ON
     * WITH ROLLBACK IMMEDIATE}. The scenarios run against it exactly as against {@code master}, whose option is off.
     */
    public static synchronized ServerUnderTest readCommittedSnapshotDatabase() {
        SqlServerContainer server = shared();
        if (!rcsiReady) {
            try (java.sql.Connection c = server.connect(); java.sql.Statement st = c.createStatement()) {
                st.execute("IF DB_ID(N'" + RCSI_DATABASE + "') IS NULL CREATE DATABASE [" + RCSI_DATABASE + "]");
                st.execute("ALTER DATABASE [" + RCSI_DATABASE + "] SET READ_COMMITTED_SNAPSHOT ON"
                        + " WITH ROLLBACK IMMEDIATE");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("cannot prepare database " + RCSI_DATABASE + " with"
                        + " READ_COMMITTED_SNAPSHOT ON: " + e.getMessage(), e);
            }
            rcsiReady = true;
        }
        return new NamedDatabase(server, RCSI_DATABASE);
    }

    /** The image every {@code *IT} starts: {@code -Dmssql.image} (set by the CI matrix), else {@value #DEFAULT_IMAGE}. */
    public static String image() {
        String image = System.getProperty("mssql.image");
        return image == null || image.isBlank() ? DEFAULT_IMAGE : image;
    }

    @Override
    public String jdbcUrl() {
        // TLS stays on; the container's certificate is self-signed.
        return "jdbc:sqlserver://" + container.getHost() + ":" + container.getMappedPort(1433)
                + ";encrypt=true;trustServerCertificate=true";
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(1433);
    }

    @Override
    public String user() {
        return container.getUsername();
    }

    @Override
    public String password() {
        return container.getPassword();
    }

    @Override
    public String kind() {
        return "sqlserver";
    }
}
