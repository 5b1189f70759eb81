package io.deltafunnel.emulator.wire;

/** What the emulator reports about itself. */
public final class ServerInfo {
    public static final String VERSION_STRING = "Microsoft SQL Server 2022 (RTM) - 16.0.1000.6 (X64) \n"
            + "\tmssql-emulator (DeltaFunnel test endpoint over H2; not a database product)";

    private ServerInfo() {
    }
}
