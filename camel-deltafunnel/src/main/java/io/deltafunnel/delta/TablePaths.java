package io.deltafunnel.delta;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Path arithmetic on table paths, done on strings so that remote URIs ({@code s3://}, {@code abfss://}, ...) work the
 * same as local directories: DuckDB's file system resolves them.
 */
final class TablePaths {

    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*");

    private TablePaths() {
    }

    /** Strips a trailing slash and turns {@code file:} URIs into plain local paths (DuckDB wants those). */
    static String normalizeTable(String path) {
        String p = path.trim();
        if (p.startsWith("file://")) {
            p = percentDecode(p.substring("file://".length()));
        } else if (p.startsWith("file:")) {
            p = percentDecode(p.substring("file:".length()));
        }
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    /** True when the path has a URI scheme other than {@code file:} (so Java NIO cannot see it). */
    static boolean isRemote(String path) {
        return SCHEME.matcher(path).matches();
    }

    static String logDir(String table) {
        return table + "/_delta_log";
    }

    /**
     * Resolves an {@code add.path} / DV path / sidecar path from the log: those are URI-encoded (RFC 2396), either
     * relative to {@code base} or absolute.
     */
    static String resolve(String base, String uriPath) {
        if (uriPath.startsWith("file:")) {
            return normalizeTable(uriPath);
        }
        if (isRemote(uriPath)) {
            int schemeEnd = uriPath.indexOf("://") + 3;
            return uriPath.substring(0, schemeEnd) + percentDecode(uriPath.substring(schemeEnd));
        }
        String decoded = percentDecode(uriPath);
        if (decoded.startsWith("/")) {
            return decoded;
        }
        return base + "/" + decoded;
    }

    /** Decodes {@code %XX} escapes as UTF-8; a '+' stays a '+' (URI, not form encoding). */
    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            byte b = raw[i];
            if (b == '%' && i + 2 < raw.length && hex(raw[i + 1]) >= 0 && hex(raw[i + 2]) >= 0) {
                out.write(hex(raw[i + 1]) * 16 + hex(raw[i + 2]));
                i += 2;
            } else {
                out.write(b);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }
}
