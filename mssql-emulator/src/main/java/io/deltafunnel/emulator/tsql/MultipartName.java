package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.ArrayList;
import java.util.List;

/** Parses object names given as strings, e.g. {@code [dbo].[My]]Table]}, {@code dbo.t}, {@code master..t}. */
public final class MultipartName {
    private MultipartName() {
    }

    /** Parts of the name (empty strings for omitted parts such as in {@code db..t}). */
    public static List<String> parse(String s) throws SqlServerError {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '[') {
                i++;
                while (true) {
                    if (i >= n) {
                        throw ErrorCatalog.EMPTY_NAME_PART.error("Invalid object name '" + s + "'.");
                    }
                    char d = s.charAt(i);
                    if (d == ']') {
                        if (i + 1 < n && s.charAt(i + 1) == ']') {
                            cur.append(']');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    cur.append(d);
                    i++;
                }
            } else if (c == '"') {
                i++;
                while (i < n && s.charAt(i) != '"') {
                    cur.append(s.charAt(i++));
                }
                i++;
            } else if (c == '.') {
                parts.add(cur.toString());
                cur.setLength(0);
                i++;
            } else {
                cur.append(c);
                i++;
            }
        }
        parts.add(cur.toString().trim());
        return parts;
    }

    /** Resolves to {schema, name} (schema defaults to dbo); null if the name has more than 3 parts. */
    public static String[] schemaAndName(String s) throws SqlServerError {
        List<String> p = parse(s.trim());
        if (p.size() > 3 || p.isEmpty()) {
            return null;
        }
        String name = p.get(p.size() - 1);
        String schema = p.size() >= 2 ? p.get(p.size() - 2) : "";
        return new String[] {schema.isEmpty() ? "dbo" : schema, name};
    }
}
