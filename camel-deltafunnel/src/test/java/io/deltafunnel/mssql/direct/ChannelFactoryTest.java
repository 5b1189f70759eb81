package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.run.ChannelFactory;

import org.junit.jupiter.api.Test;

/** The encoder choice without Camel: DRIVER, DIRECT where its settings allow, else fallback or a refusal. */
class ChannelFactoryTest {
    private static final String URL = "jdbc:sqlserver://localhost:1433;encrypt=true";

    private static ConnectionSettings url(String url) {
        return new ConnectionSettings(null, url, "loader", "s3cret!", 0, null);
    }

    @Test
    void driverUnlessDirectIsAsked() {
        SqlChannelProvider p = ChannelFactory.channels("t", url(URL), BulkEncoder.DRIVER, true, false);
        assertFalse(p instanceof DirectChannels);
        assertInstanceOf(DirectChannels.class, ChannelFactory.channels("t", url(URL), BulkEncoder.DIRECT, false, false));
    }

    @Test
    void unsupportedDirectSettingsFallBackOrAreRefusedNamingWhy() {
        ConnectionSettings kerberos = url(URL + ";integratedSecurity=true");
        assertFalse(ChannelFactory.channels("t", kerberos, BulkEncoder.DIRECT, true, false) instanceof DirectChannels);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ChannelFactory.channels("deltafunnel-mssql:dbo.t", kerberos, BulkEncoder.DIRECT, false, false));
        assertTrue(e.getMessage().contains("deltafunnel-mssql:dbo.t") && e.getMessage().contains("integratedsecurity"),
                e.getMessage());
        IllegalArgumentException identity = assertThrows(IllegalArgumentException.class,
                () -> ChannelFactory.channels("t", url(URL), BulkEncoder.DIRECT, false, true));
        assertTrue(identity.getMessage().contains("keepIdentity"), identity.getMessage());
        IllegalArgumentException noUrl = assertThrows(IllegalArgumentException.class, () -> ChannelFactory.channels(
                "t", new ConnectionSettings(null, null, null, null, 0, null), BulkEncoder.DIRECT, false, false));
        assertTrue(noUrl.getMessage().contains("no url"), noUrl.getMessage());
        assertFalse(e.getMessage().contains("s3cret!"), "the password never appears");
    }

    @Test
    void settingsNeverShowThePasswordOrToken() {
        String text = new ConnectionSettings(null, URL, "loader", "s3cret!", 5, () -> "tok3n").toString();
        assertFalse(text.contains("s3cret!") || text.contains("tok3n"), text);
        assertTrue(text.contains("loader"), text);
    }
}
