package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.TdsWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds the LOGIN7 message {@link DirectTdsConnection} sends (MS-TDS 2.2.6.4) with the flags mssql-jdbc uses (checked
 * field by field by LoginEquivalenceTest): SQL authentication with the obfuscated password, or the FEDAUTH feature
 * with an access token. (The emulator's {@code Login7Request} is the other side: it decodes the message.) The buffers that held the password or the token are zeroed once the message is built.
 */
final class Login7Builder {

    private static final String LIBRARY_NAME = "deltafunnel";
    /** ClientProgVer sent in LOGIN7 (0.1.0.0 little-endian: build, patch, minor, major bytes). */
    private static final int CLIENT_PROG_VERSION = 0x00010000;

    private Login7Builder() {
    }

    /**
     * The LOGIN7 payload; {@code serverName} is the host being logged in to, {@code token} the UTF-16LE access token
     * or null for SQL authentication, {@code fedAuthEcho} whether the PRELOGIN answer asked for FEDAUTHREQUIRED.
     * The caller zeroes the returned array once it is sent.
     */
    static byte[] build(DirectOptions o, String serverName, byte[] token, boolean fedAuthEcho) {
        boolean sqlAuth = token == null;
        byte[] hostName = chars(o.workstationId != null ? o.workstationId : localHostName());
        byte[] user = sqlAuth ? chars(o.user) : new byte[0];
        byte[] password = sqlAuth ? Login7.obfuscatePassword(o.password) : new byte[0];
        byte[] app = chars(o.applicationName == null ? "" : o.applicationName);
        byte[] server = chars(serverName);
        byte[] library = chars(LIBRARY_NAME);
        byte[] database = chars(o.database);
        // FeatureExt: FEDAUTH (token logins), JSONSUPPORT and VECTORSUPPORT (version 1, float32: SQL Server 2025
        // sends json and vector columns as their own types, and accepts the vector type, only when it acknowledges
        // them) and the terminator; always present, like mssql-jdbc's
        TdsWriter ext = new TdsWriter(64);
        if (token != null) {
            ext.writeByte(Login7.FEATURE_FEDAUTH).writeInt(1 + 4 + token.length);
            ext.writeByte(Login7.fedAuthOptions(Login7.FEDAUTH_LIBRARY_SECURITYTOKEN, fedAuthEcho));
            ext.writeInt(token.length).writeBytes(token);
        }
        ext.writeByte(Login7.FEATURE_VECTORSUPPORT).writeInt(1).writeByte(Login7.VECTORSUPPORT_VERSION_1);
        ext.writeByte(Login7.FEATURE_JSONSUPPORT).writeInt(1).writeByte(Login7.JSONSUPPORT_VERSION_1);
        ext.writeByte(Login7.FEATURE_TERMINATOR);

        int offset = Login7.FIXED_LENGTH;
        int hostAt = offset;
        offset += hostName.length;
        int userAt = offset;
        offset += user.length;
        int passwordAt = offset;
        offset += password.length;
        int appAt = offset;
        offset += app.length;
        int serverAt = offset;
        offset += server.length;
        int extensionAt = offset;
        offset += 4;
        int libraryAt = offset;
        offset += library.length;
        int databaseAt = offset;
        offset += database.length;
        int featureExtAt = offset;
        int total = offset + ext.size();

        TdsWriter w = new TdsWriter(total);
        w.writeInt(total);
        w.writeInt(o.encryption == DirectTdsConnection.Encryption.STRICT ? Login7.TDS_8_0 : Login7.TDS_7_4);
        w.writeInt(o.packetSize).writeInt(CLIENT_PROG_VERSION).writeInt((int) ProcessHandle.current().pid());
        w.writeInt(0); // ConnectionID
        w.writeByte(Login7.F1_USE_DB_OFF | Login7.F1_INIT_DB_FATAL | Login7.F1_SET_LANG_ON);
        // ODBC on: the server applies the ODBC session defaults (ANSI_NULLS, ANSI_PADDING, ... ON) like mssql-jdbc
        w.writeByte(Login7.F2_INIT_LANG_FATAL | Login7.F2_ODBC_ON);
        w.writeByte(o.readOnlyIntent ? Login7.TYPE_READ_ONLY_INTENT : 0);
        w.writeByte(Login7.F3_UNKNOWN_COLLATION_HANDLING | Login7.F3_EXTENSION);
        w.writeInt(0).writeInt(0); // ClientTimeZone, ClientLCID
        w.writeShort(hostAt).writeShort(hostName.length / 2);
        w.writeShort(userAt).writeShort(user.length / 2);
        w.writeShort(passwordAt).writeShort(password.length / 2);
        w.writeShort(appAt).writeShort(app.length / 2);
        w.writeShort(serverAt).writeShort(server.length / 2);
        w.writeShort(extensionAt).writeShort(4); // cbExtension counts bytes
        w.writeShort(libraryAt).writeShort(library.length / 2);
        w.writeShort(0).writeShort(0); // Language: server default
        w.writeShort(databaseAt).writeShort(database.length / 2);
        w.writeBytes(new byte[6]); // ClientID
        w.writeShort(0).writeShort(0); // SSPI
        w.writeShort(0).writeShort(0); // AtchDBFile
        w.writeShort(0).writeShort(0); // ChangePassword
        w.writeInt(0); // cbSSPILong
        w.writeBytes(hostName).writeBytes(user).writeBytes(password).writeBytes(app).writeBytes(server);
        w.writeInt(featureExtAt);
        w.writeBytes(library).writeBytes(database);
        w.writeBytes(ext.array(), 0, ext.size());
        Arrays.fill(password, (byte) 0);
        Arrays.fill(ext.array(), (byte) 0);
        byte[] message = w.toByteArray();
        Arrays.fill(w.array(), (byte) 0);
        return message;
    }

    private static byte[] chars(String s) {
        return s.getBytes(StandardCharsets.UTF_16LE);
    }

    private static String localHostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost"; // no resolvable host name: LOGIN7 HostName is informational only
        }
    }

}
