package io.deltafunnel.emulator;

import io.deltafunnel.emulator.wire.Login7Request;
import io.deltafunnel.tds.PreloginOptions;

import java.util.List;
import java.util.Map;

/**
 * What one client connection sent during connection setup, decoded by the emulator: the PRELOGIN options and every
 * LOGIN7 field. Never holds a secret: for the password only its presence and length, for an access token only its
 * length. Obtain with {@link MssqlEmulator#loginRecords()}.
 *
 * @param spid the session id the emulator gave the connection
 * @param strictTls whether the connection started with a TLS handshake (TDS 8.0 strict)
 * @param tlsProtocol negotiated TLS protocol ("TLSv1.2", "TLSv1.3") or null for a plain session
 * @param alpn negotiated TLS application protocol ("tds/8.0" in strict mode), null otherwise
 * @param prelogin the client's PRELOGIN options in wire order, option id → hex value
 * @param fedAuthRequiredReply the FEDAUTHREQUIRED value the emulator answered, -1 if it sent none
 * @param tdsVersion LOGIN7 TDSVersion (e.g. 0x74000004)
 * @param packetSize requested packet size
 * @param clientProgVersion ClientProgVer
 * @param clientPid ClientPID
 * @param connectionId ConnectionID
 * @param optionFlags1 OptionFlags1
 * @param optionFlags2 OptionFlags2
 * @param typeFlags TypeFlags
 * @param optionFlags3 OptionFlags3
 * @param clientTimeZone ClientTimeZone
 * @param clientLcid ClientLCID
 * @param hostName HostName
 * @param userName UserName
 * @param passwordLength password length in characters (0 = none sent); the password itself is not kept
 * @param appName AppName
 * @param serverName ServerName
 * @param libraryName CltIntName
 * @param language Language
 * @param database Database
 * @param clientId ClientID (6 bytes, hex)
 * @param sspiLength length of the SSPI data
 * @param attachDbFile AtchDBFile
 * @param changePasswordPresent whether a ChangePassword field was sent
 * @param featureExtIds FeatureExt ids in wire order (empty without fExtension)
 * @param fedAuthLibrary FEDAUTH bFedAuthLibrary, -1 without a FEDAUTH feature
 * @param fedAuthEcho FEDAUTH fFedAuthEcho
 * @param accessTokenLength length in characters of the FEDAUTH token (0 = none); the token itself is not kept
 * @param accepted whether the login succeeded
 */
public record LoginRecord(int spid, boolean strictTls, String tlsProtocol, String alpn, Map<Integer, String> prelogin,
        int fedAuthRequiredReply, int tdsVersion, int packetSize, int clientProgVersion, int clientPid,
        int connectionId, int optionFlags1, int optionFlags2, int typeFlags, int optionFlags3, int clientTimeZone,
        int clientLcid, String hostName, String userName, int passwordLength, String appName, String serverName,
        String libraryName, String language, String database, String clientId, int sspiLength, String attachDbFile,
        boolean changePasswordPresent, List<Integer> featureExtIds, int fedAuthLibrary, boolean fedAuthEcho,
        int accessTokenLength, boolean accepted) {

    public LoginRecord {
        prelogin = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(prelogin)); // wire order
        featureExtIds = List.copyOf(featureExtIds);
    }

    /** Whether a password was sent (never the password itself). */
    public boolean passwordPresent() {
        return passwordLength > 0;
    }

    /** The hex value of a PRELOGIN option (see {@link PreloginOptions}), null when the client did not send it. */
    public String preloginOption(int id) {
        return prelogin.get(id);
    }

    /** The client's single-byte PRELOGIN ENCRYPTION value, -1 if absent. */
    public int preloginEncryption() {
        String v = prelogin.get(PreloginOptions.ENCRYPTION);
        return v == null || v.isEmpty() ? -1 : Integer.parseInt(v.substring(0, 2), 16);
    }

    public static LoginRecord of(int spid, boolean strictTls, String tlsProtocol, String alpn, Map<Integer, String> prelogin,
            int fedAuthRequiredReply, Login7Request l, boolean accepted) {
        return new LoginRecord(spid, strictTls, tlsProtocol, alpn, prelogin, fedAuthRequiredReply, l.tdsVersion,
                l.packetSize, l.clientProgVersion, l.clientPid, l.connectionId, l.optionFlags1, l.optionFlags2,
                l.typeFlags, l.optionFlags3, l.clientTimeZone, l.clientLcid, l.hostName, l.userName,
                l.password.length(), l.appName, l.serverName, l.libraryName, l.language, l.database, l.clientId,
                l.sspiLength, l.attachDbFile, l.changePasswordPresent, l.featureExtIds, l.fedAuthLibrary,
                l.fedAuthEcho, l.accessToken == null ? 0 : l.accessToken.length(), accepted);
    }
}
