package io.deltafunnel.mssql.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What the producer hands to mssql-jdbc with a url. */
class ConnectionSettingsTest {

    @Test
    void idleConnectionResiliencyIsOff() {
        ConnectionSettings s = new ConnectionSettings(null, "jdbc:sqlserver://localhost:1433", "u", "p", 7, null);
        // a silent reconnect would be a new session without the claim's application lock
        assertEquals("0", s.driverProperties().getProperty("connectRetryCount"));
        assertEquals("7", s.driverProperties().getProperty("loginTimeout"));
        assertEquals("u", s.driverProperties().getProperty("user"));
    }

    @Test
    void toStringMasksThePasswordTheTokenAndCredentialsInsideTheUrl() {
        ConnectionSettings s = new ConnectionSettings(null, "jdbc:sqlserver://h:1433;databaseName=d;"
                + "PASSWORD={Url;Pw1};keyStoreSecret=Ks2", "loader", "Opt!Pw3", 0, () -> "Tok4");
        assertEquals("ConnectionSettings[url=jdbc:sqlserver://h:1433;databaseName=d;PASSWORD=***;keyStoreSecret=***,"
                     + " username=loader, password=***, accessToken=***]", s.toString());
    }

    /** An empty password option (the application's default) leaves a password inside the URL in force. */
    @Test
    void anEmptyPasswordOrUserIsNotSet() throws Exception {
        try (io.deltafunnel.emulator.MssqlEmulator emu = io.deltafunnel.emulator.MssqlEmulator.builder().port(0)
                .password("InUrl!Pw7").start()) {
            ConnectionSettings s = new ConnectionSettings(null, emu.jdbcUrl() + ";user=" + emu.user()
                    + ";password=InUrl!Pw7", "", "", 5, null);
            assertEquals(null, s.password());
            assertEquals(null, s.username());
            s.driverConnections().ping();
        }
    }
}
