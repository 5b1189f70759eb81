package io.deltafunnel.mssql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
