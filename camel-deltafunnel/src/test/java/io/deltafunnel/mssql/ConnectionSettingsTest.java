package io.deltafunnel.mssql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConnectionSettingsTest {

    @Test
    void toStringMasksThePasswordTheTokenAndCredentialsInsideTheUrl() {
        ConnectionSettings s = new ConnectionSettings(null, "jdbc:sqlserver://h:1433;databaseName=d;"
                + "PASSWORD={Url;Pw1};keyStoreSecret=Ks2", "loader", "Opt!Pw3", 0, () -> "Tok4");
        assertEquals("ConnectionSettings[url=jdbc:sqlserver://h:1433;databaseName=d;PASSWORD=***;keyStoreSecret=***,"
                     + " username=loader, password=***, accessToken=***]", s.toString());
    }
}
