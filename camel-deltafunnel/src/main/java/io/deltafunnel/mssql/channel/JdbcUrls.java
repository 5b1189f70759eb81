package io.deltafunnel.mssql.channel;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks credentials in mssql-jdbc URLs ({@code jdbc:sqlserver://host[:port][;name=value]*}) before a URL, a settings
 * object or a message that quotes one is rendered (log lines, exception messages, health-check details, summaries).
 * The one place that decides what a secret is; {@code docs/operations.md} lists where it is used.
 *
 * <p>A property is a secret when its name, compared case-insensitively as mssql-jdbc compares names, is one of
 * mssql-jdbc's credential properties ({@link #DRIVER_SECRETS}: {@code password}, {@code accessToken},
 * {@code clientKeyPassword}, {@code keyStoreSecret}, {@code trustStorePassword}, {@code AADSecurePrincipalSecret}), or
 * contains {@code password}, {@code secret}, {@code token} or {@code pwd} (so a property added by a later driver, or
 * a misspelt one the driver passes on, is masked too). Its value, braced ({@code {a;b}}, {@code }}} inside is one
 * {@code }}) or not, becomes {@value #MASK}; everything else is kept as written.
 */
public final class JdbcUrls {

    /** What a secret value is replaced with. */
    public static final String MASK = "***";

    /**
     * mssql-jdbc 13.6's connection properties that carry a credential (lower case), from its documented connection
     * properties: {@code password}, {@code accessToken}, {@code clientKeyPassword}, {@code keyStoreSecret},
     * {@code trustStorePassword}, {@code AADSecurePrincipalSecret}; plus {@code keyStorePassword}, a common
     * misspelling of {@code keyStoreSecret}.
     */
    public static final Set<String> DRIVER_SECRETS = Set.of("password", "accesstoken", "clientkeypassword",
            "keystoresecret", "keystorepassword", "truststorepassword", "aadsecureprincipalsecret");

    private static final String[] SECRET_PARTS = {"password", "secret", "token", "pwd"};

    /**
     * In free text: {@code ;name=value} where name is a secret; the value is braced (to its closing brace, or to the
     * end of the line when unterminated) or runs to the next {@code ;} or line end.
     */
    private static final Pattern IN_TEXT = Pattern.compile(
            ";(\\s*)([A-Za-z][A-Za-z0-9_.-]*)(\\s*)=(\\s*\\{(?:[^}\\r\\n]|\\}\\})*(?:\\}|$)|[^;\\r\\n]*)",
            Pattern.MULTILINE);

    private JdbcUrls() {
    }

    /** Whether {@code propertyName} (any case, surrounding blanks ignored) names a credential. */
    public static boolean isSecret(String propertyName) {
        String name = propertyName.trim().toLowerCase(Locale.ROOT);
        if (DRIVER_SECRETS.contains(name)) {
            return true;
        }
        for (String part : SECRET_PARTS) {
            if (name.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code url} with the value of every secret property replaced by {@value #MASK}; the server part and the other
     * properties are kept exactly as written. Null stays null. A braced secret value that is never closed masks the
     * rest of the URL.
     */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        int semi = url.indexOf(';');
        if (semi < 0) {
            return url;
        }
        StringBuilder out = new StringBuilder(url.length()).append(url, 0, semi);
        int i = semi;
        while (i < url.length()) {
            // url.charAt(i) == ';'
            int eq = url.indexOf('=', i + 1);
            int nextSemi = url.indexOf(';', i + 1);
            if (eq < 0 || (nextSemi >= 0 && nextSemi < eq)) {
                // a segment without a value: kept as written
                int end = nextSemi < 0 ? url.length() : nextSemi;
                out.append(url, i, end);
                i = end;
                continue;
            }
            String name = url.substring(i + 1, eq);
            int valueStart = eq + 1;
            int ws = valueStart;
            while (ws < url.length() && Character.isWhitespace(url.charAt(ws))) {
                ws++;
            }
            int end;
            if (ws < url.length() && url.charAt(ws) == '{') {
                int close = closingBrace(url, ws + 1);
                if (close < 0) {
                    end = url.length();
                } else {
                    int after = url.indexOf(';', close + 1);
                    end = after < 0 ? url.length() : after;
                }
            } else {
                end = nextSemi < 0 ? url.length() : nextSemi;
            }
            out.append(url, i, valueStart);
            out.append(isSecret(name) ? MASK : url.substring(valueStart, end));
            i = end;
        }
        return out.toString();
    }

    /** The index of the brace that closes a value opened before {@code from}, {@code }}} being an escaped one; -1. */
    private static int closingBrace(String s, int from) {
        int k = from;
        while (k < s.length()) {
            if (s.charAt(k) == '}') {
                if (k + 1 < s.length() && s.charAt(k + 1) == '}') {
                    k += 2;
                    continue;
                }
                return k;
            }
            k++;
        }
        return -1;
    }

    /**
     * {@code text} (a message that may quote URLs) with every {@code ;name=value} whose name is a secret masked. An
     * unbraced value is taken to run to the next {@code ;} or the end of the line, so more than the value may be
     * masked, never less. Null stays null.
     */
    public static String redactText(String text) {
        if (text == null || text.indexOf(';') < 0) {
            return text;
        }
        Matcher m = IN_TEXT.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            if (isSecret(m.group(2))) {
                m.appendReplacement(out, Matcher.quoteReplacement(";" + m.group(1) + m.group(2) + m.group(3) + "="
                        + MASK));
            } else {
                m.appendReplacement(out, Matcher.quoteReplacement(m.group()));
            }
        }
        m.appendTail(out);
        return out.toString();
    }
}
