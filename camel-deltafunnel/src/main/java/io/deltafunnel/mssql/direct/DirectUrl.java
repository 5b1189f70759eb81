package io.deltafunnel.mssql.direct;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads an mssql-jdbc URL ({@code jdbc:sqlserver://host[:port][;name=value]*}) into {@link DirectTdsConnection}
 * options, so that {@code bulkEncoder=direct} connects where the driver path would. Settings that change how the
 * driver authenticates or where it connects, and that the direct client does not implement, raise
 * {@link DirectUnsupportedSettingException}; settings that only tune the driver's own JDBC behaviour are ignored.
 * Property names are case-insensitive, as in mssql-jdbc. Values (passwords included) never appear in messages.
 */
public final class DirectUrl {

    private static final String PREFIX = "jdbc:sqlserver://";

    private DirectUrl() {
    }

    /**
     * Whether mssql-jdbc (and the direct client) encrypt a session's data for {@code url}: unless its {@code encrypt}
     * property is {@code false}, {@code no} or {@code optional} (then only the login is encrypted). Both default to
     * encrypting (mssql-jdbc 10 and later). False for null or a URL that is not mssql-jdbc's.
     */
    public static boolean encryptsData(String url) {
        if (url == null || !url.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return false;
        }
        int semi = url.indexOf(';');
        String encrypt = semi < 0 ? null : properties(url.substring(semi + 1)).get("encrypt");
        return encrypt == null || encryption(encrypt) != DirectTdsConnection.Encryption.OFF;
    }

    /** The encryption an {@code encrypt} value asks for (any case), as mssql-jdbc reads it; null for another value. */
    private static DirectTdsConnection.Encryption encryption(String encrypt) {
        return switch (encrypt.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "mandatory" -> DirectTdsConnection.Encryption.MANDATORY;
            case "false", "no", "optional" -> DirectTdsConnection.Encryption.OFF;
            case "strict" -> DirectTdsConnection.Encryption.STRICT;
            default -> null;
        };
    }

    /**
     * The options for {@code url}, with {@code user}/{@code password} (the endpoint's username/password options)
     * taking precedence over the URL's.
     */
    public static DirectOptions parse(String url, String user, String password)
            throws DirectUnsupportedSettingException {
        if (url == null || !url.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            throw new DirectUnsupportedSettingException("not an mssql-jdbc URL (expected " + PREFIX + "...)");
        }
        String rest = url.substring(PREFIX.length());
        int semi = rest.indexOf(';');
        String server = semi < 0 ? rest : rest.substring(0, semi);
        Map<String, String> p = properties(semi < 0 ? "" : rest.substring(semi + 1));
        DirectOptions o = DirectTdsConnection.options();

        String host = server;
        Integer port = null;
        int colon = server.lastIndexOf(':');
        if (colon >= 0 && server.indexOf(']') < colon) {
            host = server.substring(0, colon);
            port = Integer.parseInt(server.substring(colon + 1));
        }
        if (host.contains("\\") || p.containsKey("instancename")) {
            throw new DirectUnsupportedSettingException("named instances (host\\instance, instanceName) need the SQL"
                    + " Browser lookup, which the direct client does not do; give the port instead");
        }
        if (p.containsKey("servername")) {
            host = p.get("servername");
        }
        if (p.containsKey("portnumber") || p.containsKey("port")) {
            port = Integer.parseInt(p.getOrDefault("portnumber", p.get("port")));
        }
        o.host(host.isEmpty() ? "localhost" : host).port(port == null ? 1433 : port);
        String db = p.getOrDefault("databasename", p.get("database"));
        if (db != null) {
            o.database(db);
        }
        for (String unsupported : new String[] {"failoverpartner", "columnencryptionsetting", "keystoreauthentication",
            "integratedsecurity", "authenticationscheme", "realm", "serverspn", "applicationintent",
            "multisubnetfailover", "clientcertificate", "clientkey", "socketfactoryclass", "sslprotocol",
            "trustmanagerclass", "servercertificate", "accesstoken", "usedefaultgsscredential",
            "accesstokencallbackclass"}) {
            String v = p.get(unsupported);
            if (v != null && !isDefault(unsupported, v)) {
                throw new DirectUnsupportedSettingException("the connection property " + unsupported
                        + " is not supported by bulkEncoder=direct (supported: SQL authentication and an access"
                        + " token supplier; encrypt (true/false/strict), trustServerCertificate, hostNameInCertificate,"
                        + " trustStore)");
            }
        }
        String auth = p.get("authentication");
        if (auth != null && !auth.equalsIgnoreCase("SqlPassword") && !auth.equalsIgnoreCase("NotSpecified")) {
            throw new DirectUnsupportedSettingException("authentication=" + auth + " is not supported by"
                    + " bulkEncoder=direct (SqlPassword, or an access token supplier)");
        }
        String u = user != null ? user : p.getOrDefault("user", p.get("username"));
        String pw = password != null ? password : p.get("password");
        if (u != null) {
            o.user(u);
        }
        if (pw != null) {
            o.password(pw);
        }
        String encrypt = p.get("encrypt");
        if (encrypt != null) {
            DirectTdsConnection.Encryption e = encryption(encrypt);
            if (e == null) {
                throw new DirectUnsupportedSettingException("encrypt=" + encrypt
                        + " is not supported by bulkEncoder=direct");
            }
            o.encryption(e);
        }
        if (p.containsKey("trustservercertificate")) {
            boolean trust = Boolean.parseBoolean(p.get("trustservercertificate"));
            if (trust && o.encryption() == DirectTdsConnection.Encryption.STRICT) {
                throw new DirectUnsupportedSettingException("encrypt=strict always validates the server certificate;"
                        + " trustServerCertificate=true is refused with it (mssql-jdbc silently ignores it): give a"
                        + " trustStore instead");
            }
            o.trustServerCertificate(trust);
        }
        if (p.containsKey("hostnameincertificate")) {
            o.hostNameInCertificate(p.get("hostnameincertificate"));
        }
        if (p.containsKey("truststore")) {
            String pass = p.get("truststorepassword");
            o.trustStore(java.nio.file.Path.of(p.get("truststore")), pass == null ? null : pass.toCharArray(),
                    p.get("truststoretype"));
        }
        if (p.containsKey("packetsize")) {
            int size = Integer.parseInt(p.get("packetsize"));
            o.packetSize(size == 0 ? 32767 : size);
        }
        if (p.containsKey("logintimeout")) {
            o.connectTimeoutMillis(Math.max(1, Integer.parseInt(p.get("logintimeout"))) * 1000);
        }
        if (p.containsKey("applicationname")) {
            o.applicationName(p.get("applicationname"));
        }
        return o;
    }

    private static boolean isDefault(String name, String value) {
        return switch (name) {
            case "integratedsecurity", "multisubnetfailover", "usedefaultgsscredential" ->
                    value.equalsIgnoreCase("false");
            case "columnencryptionsetting" -> value.equalsIgnoreCase("Disabled");
            case "applicationintent" -> value.equalsIgnoreCase("ReadWrite");
            default -> value.isEmpty();
        };
    }

    /**
     * {@code a=1;b={x;y}} to lower-case names and values (braces quote a value, {@code }}} inside them is one
     * {@code }}, as in mssql-jdbc). mssql-jdbc's own parser is not public: its {@code getPropertyInfo} withholds the
     * password and fills in every default, so this small parser stays, and {@code DirectUrlTest} checks that it
     * reads every property the direct client uses exactly as {@code SQLServerDriver.getPropertyInfo} does.
     */
    static Map<String, String> properties(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        while (i < text.length()) {
            int eq = text.indexOf('=', i);
            if (eq < 0) {
                break;
            }
            String name = text.substring(i, eq).trim().toLowerCase(Locale.ROOT);
            int start = eq + 1;
            String value;
            if (start < text.length() && text.charAt(start) == '{') {
                // braces quote a value; inside them "}}" is one '}' (mssql-jdbc's escape)
                StringBuilder v = new StringBuilder();
                int k = start + 1;
                while (k < text.length()) {
                    char c = text.charAt(k);
                    if (c == '}') {
                        if (k + 1 < text.length() && text.charAt(k + 1) == '}') {
                            v.append('}');
                            k += 2;
                            continue;
                        }
                        break;
                    }
                    v.append(c);
                    k++;
                }
                value = v.toString();
                int next = text.indexOf(';', Math.min(k, text.length()));
                i = next < 0 ? text.length() : next + 1;
            } else {
                int next = text.indexOf(';', start);
                value = text.substring(start, next < 0 ? text.length() : next);
                i = next < 0 ? text.length() : next + 1;
            }
            if (!name.isEmpty()) {
                out.put(name, value.trim());
            }
        }
        return out;
    }
}
