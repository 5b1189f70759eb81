package io.deltafunnel.mssql;

/**
 * The SQL Server Docker image every {@code *IT} of this module starts: the system property {@code mssql.image} (the
 * hosted CI matrix sets it; failsafe passes it through), by default {@value #DEFAULT}. The same property as
 * mssql-emulator's fidelity {@code SqlServerContainer}.
 */
public final class MssqlTestImage {
    public static final String DEFAULT = "mcr.microsoft.com/mssql/server:2022-latest";

    private MssqlTestImage() {
    }

    public static String name() {
        String image = System.getProperty("mssql.image");
        return image == null || image.isBlank() ? DEFAULT : image;
    }
}
