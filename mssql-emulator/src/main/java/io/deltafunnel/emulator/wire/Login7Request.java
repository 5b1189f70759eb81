package io.deltafunnel.emulator.wire;

import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.PreloginOptions;
import io.deltafunnel.tds.TdsProtocolException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The decoded fields of a LOGIN7 message (MS-TDS 2.2.6.4), including the FeatureExt block. Holds the clear password
 * and the access token only as long as the login check needs them; {@link LoginRecord} never carries either.
 */
public final class Login7Request {
    public int tdsVersion;
    public int packetSize;
    public int clientProgVersion;
    public int clientPid;
    public int connectionId;
    public int optionFlags1;
    public int optionFlags2;
    public int typeFlags;
    public int optionFlags3;
    public int clientTimeZone;
    public int clientLcid;
    public String hostName;
    public String userName;
    public String password;
    public String appName;
    public String serverName;
    public String libraryName;
    public String language;
    public String database;
    public String clientId;
    public int sspiLength;
    public String attachDbFile;
    public boolean changePasswordPresent;
    boolean integratedSecurity;
    public List<Integer> featureExtIds = List.of();
    /** FEDAUTH feature: library (-1 when absent), echo bit, token (SECURITYTOKEN library only). */
    public int fedAuthLibrary = -1;
    /** The JSONSUPPORT version the client asked for, 0 when it did not send the feature. */
    public int jsonSupportVersion;
    /** The VECTORSUPPORT version the client asked for, 0 when it did not send the feature. */
    public int vectorSupportVersion;
    public boolean fedAuthEcho;
    public String accessToken;

    private Login7Request() {
    }

    static Login7Request parse(byte[] b) {
        if (b.length < Login7.FIXED_LENGTH) {
            throw new TdsProtocolException("LOGIN7 too short: " + b.length + " bytes");
        }
        Login7Request r = new Login7Request();
        r.tdsVersion = intLe(b, Login7.TDS_VERSION);
        r.packetSize = intLe(b, Login7.PACKET_SIZE);
        r.clientProgVersion = intLe(b, Login7.CLIENT_PROG_VER);
        r.clientPid = intLe(b, Login7.CLIENT_PID);
        r.connectionId = intLe(b, Login7.CONNECTION_ID);
        r.optionFlags1 = b[Login7.OPTION_FLAGS1] & 0xFF;
        r.optionFlags2 = b[Login7.OPTION_FLAGS2] & 0xFF;
        r.typeFlags = b[Login7.TYPE_FLAGS] & 0xFF;
        r.optionFlags3 = b[Login7.OPTION_FLAGS3] & 0xFF;
        r.clientTimeZone = intLe(b, Login7.CLIENT_TIME_ZONE);
        r.clientLcid = intLe(b, Login7.CLIENT_LCID);
        r.integratedSecurity = (r.optionFlags2 & Login7.F2_INTEGRATED_SECURITY) != 0;
        r.hostName = string(b, Login7.IB_HOSTNAME);
        r.userName = string(b, Login7.IB_USERNAME);
        r.password = Login7.deobfuscatePassword(field(b, Login7.IB_PASSWORD, 2));
        r.appName = string(b, Login7.IB_APPNAME);
        r.serverName = string(b, Login7.IB_SERVERNAME);
        r.libraryName = string(b, Login7.IB_CLTINTNAME);
        r.language = string(b, Login7.IB_LANGUAGE);
        r.database = string(b, Login7.IB_DATABASE);
        byte[] cid = new byte[6];
        System.arraycopy(b, Login7.CLIENT_ID, cid, 0, 6);
        r.clientId = PreloginOptions.hex(cid);
        r.sspiLength = shortLe(b, Login7.IB_SSPI + 2);
        r.attachDbFile = string(b, Login7.IB_ATCHDBFILE);
        r.changePasswordPresent = shortLe(b, Login7.IB_CHANGEPASSWORD + 2) > 0;
        if ((r.optionFlags3 & Login7.F3_EXTENSION) != 0) {
            byte[] ext = field(b, Login7.IB_EXTENSION, 1);
            if (ext.length < 4) {
                throw new TdsProtocolException("LOGIN7 fExtension set but cbExtension is " + ext.length);
            }
            r.parseFeatureExt(b, intLe(ext, 0));
        }
        return r;
    }

    private void parseFeatureExt(byte[] b, int at) {
        List<Integer> ids = new ArrayList<>();
        int i = at;
        while (true) {
            if (i >= b.length) {
                throw new TdsProtocolException("LOGIN7 FeatureExt block has no terminator");
            }
            int id = b[i] & 0xFF;
            if (id == Login7.FEATURE_TERMINATOR) {
                break;
            }
            if (i + 5 > b.length) {
                throw new TdsProtocolException("truncated LOGIN7 FeatureExt entry");
            }
            int len = intLe(b, i + 1);
            int data = i + 5;
            if (len < 0 || data + (long) len > b.length) {
                throw new TdsProtocolException("LOGIN7 FeatureExt 0x" + Integer.toHexString(id) + " length " + len
                        + " points outside the message");
            }
            ids.add(id);
            if (id == Login7.FEATURE_FEDAUTH) {
                parseFedAuth(b, data, len);
            } else if (id == Login7.FEATURE_JSONSUPPORT || id == Login7.FEATURE_VECTORSUPPORT) {
                if (len != 1) {
                    throw new TdsProtocolException("LOGIN7 feature 0x" + Integer.toHexString(id) + " has " + len
                            + " data bytes, expected the version byte");
                }
                if (id == Login7.FEATURE_JSONSUPPORT) {
                    jsonSupportVersion = b[data] & 0xFF;
                } else {
                    vectorSupportVersion = b[data] & 0xFF;
                }
            }
            i = data + len;
        }
        featureExtIds = Collections.unmodifiableList(ids);
    }

    private void parseFedAuth(byte[] b, int at, int len) {
        if (len < 1) {
            throw new TdsProtocolException("empty FEDAUTH feature data");
        }
        int options = b[at] & 0xFF;
        fedAuthLibrary = options >>> 1;
        fedAuthEcho = (options & 1) != 0;
        if (fedAuthLibrary == Login7.FEDAUTH_LIBRARY_SECURITYTOKEN) {
            if (len < 5) {
                throw new TdsProtocolException("FEDAUTH SECURITYTOKEN feature without token length");
            }
            int tokenLen = intLe(b, at + 1);
            if (tokenLen < 0 || 5L + tokenLen > len) {
                throw new TdsProtocolException("FEDAUTH token length " + tokenLen + " exceeds the feature data");
            }
            accessToken = new String(b, at + 5, tokenLen, StandardCharsets.UTF_16LE);
        }
    }

    static int intLe(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    private static int shortLe(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    /** The bytes of the (offset, length) field at {@code at}; {@code unit} bytes per length unit. */
    private static byte[] field(byte[] b, int at, int unit) {
        int offset = shortLe(b, at);
        int len = shortLe(b, at + 2) * unit;
        if (len == 0) {
            return new byte[0];
        }
        if (offset + (long) len > b.length) {
            throw new TdsProtocolException("LOGIN7 field at " + at + " points outside the message");
        }
        byte[] out = new byte[len];
        System.arraycopy(b, offset, out, 0, len);
        return out;
    }

    private static String string(byte[] b, int at) {
        return new String(field(b, at, 2), StandardCharsets.UTF_16LE);
    }
}
